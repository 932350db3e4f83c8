import type { Booking } from "#db/schema";
import { writeTransaction } from "#app/db.server";
import { sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import type { CardInput } from "#app/domain/card";
import { env } from "#app/env.server";
import { logError } from "#app/log.server";
import {
  type CheckoutSession,
  type HostedCheckoutProvider,
  PaymentProviderError,
} from "#app/integrations/payments/types";
import { getBooking, isPayable } from "#app/models/booking.server";
import {
  abandonCheckoutPlan,
  type CheckoutPlan,
  planCheckout,
  storeCheckoutSession,
} from "#app/models/checkout.server";
import { ALREADY_PAID_MESSAGE, notPayableMessage } from "#app/models/payment.server";
import { accountEmail } from "#app/models/user.server";
import { recordCheckoutSession, recordPayment } from "#app/workflows/fulfil-payment.server";
import {
  PAYMENT_SERVICE_UNAVAILABLE_MESSAGE,
  paymentProvider,
} from "#app/workflows/payment-provider.server";

/**
 * Paying for a booking. The amount always comes from the booking row, never from the
 * browser. The sandbox takes the card on the app's own page and records the payment at once;
 * Stripe Checkout is opened with claim, then call, then record: one IMMEDIATE transaction
 * checks the booking is payable, extends its hold and claims it (CHECKOUT_OPEN); Stripe is
 * asked outside any transaction with a key derived from the booking and its plan; a second
 * transaction stores the session and releases the claim (or releases it on failure).
 */

/** The hosted checkout cannot be opened; `message` is safe to show to the customer. */
export class CheckoutUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckoutUnavailableError";
  }
}

export { PAYMENT_SERVICE_UNAVAILABLE_MESSAGE };

/**
 * Stripe refuses a Checkout Session that expires less than 30 minutes after creation, so each
 * session lasts 31 minutes from when it was planned (and the hold at least as long).
 */
const SESSION_MS = 31 * 60_000;

/** Creates (or reuses) the booking's hosted checkout and returns where the customer pays. */
export async function openHostedCheckout(
  bookingId: number,
  appUrl: string,
  provider: HostedCheckoutProvider = hostedProvider(),
): Promise<{ url: string }> {
  // A concurrent request may open a session between our read and our plan: look again.
  for (let round = 0; round < 3; round++) {
    const now = Date.now();
    // Re-read: the price and the state come from the database, never from the caller's object.
    const booking = getBooking(bookingId);
    if (!booking) throw new CheckoutUnavailableError("This booking does not exist.");
    if (!isPayable(booking, now)) {
      throw new CheckoutUnavailableError(notPayableMessage(booking, now));
    }

    let stale: string | null = null;
    if (booking.checkoutSessionId && (booking.checkoutExpiresAt ?? 0) > now) {
      const existing = await lookUpCheckout(provider, booking.checkoutSessionId);
      if (existing.status === "open" && existing.url) return { url: existing.url };
      if (existing.status === "complete") {
        // Paid, but the webhook has not arrived: record it now rather than charge again.
        recordCheckoutSession(existing);
        return { url: successUrl(appUrl, existing.id) };
      }
      stale = existing.id;
    }

    const plan = writeTransaction((tx) => planCheckout(tx, bookingId, now, SESSION_MS, stale));
    if (plan.kind === "not-payable") {
      throw new CheckoutUnavailableError(
        plan.booking ? notPayableMessage(plan.booking, now) : "This booking does not exist.",
      );
    }
    if (plan.kind === "opened-elsewhere") continue;
    return { url: await createPlanned(provider, plan, appUrl) };
  }
  throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
}

async function createPlanned(
  provider: HostedCheckoutProvider,
  plan: Extract<CheckoutPlan, { kind: "create" }>,
  appUrl: string,
): Promise<string> {
  const { booking, until } = plan;
  let session: CheckoutSession;
  try {
    session = await provider.createCheckout({
      bookingId: booking.id,
      amount: booking.totalCost,
      name: `Studio session #${booking.id}`,
      description: lineDescription(booking),
      // Stripe's receipt goes where our e-mails go: the account's own address, never the
      // contact e-mail typed into the booking form (docs/product.md "E-mail").
      customerEmail: accountEmail(booking.userId),
      successUrl: `${appUrl}/booking-success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${appUrl}/checkout/${booking.id}`,
      // Never outlives the hold: a session cannot be paid after its slot was released.
      expiresAt: until,
      // The same booking and plan give the same key, so a double submit joining this plan
      // gets the very session we get.
      idempotencyKey: `checkout-booking-${booking.id}-${until}`,
    });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    logError(`Stripe: could not open a Checkout Session for booking ${booking.id}`, error);
    // The next attempt plans afresh, with a new key (this one may replay the failure).
    writeTransaction((tx) => abandonCheckoutPlan(tx, booking.id, until));
    throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
  }
  writeTransaction((tx) => storeCheckoutSession(tx, booking.id, until, session.id));
  if (!session.url) throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
  return session.url;
}

function lineDescription(booking: Booking): string {
  const hours = Number(booking.hoursNeeded);
  return `${sessionDate(booking)}, ${sessionTimeRange(booking)} (Atlanta time), ${hours} ${hours === 1 ? "hour" : "hours"}`;
}

/** Where Stripe sends the customer back after paying (the series checkout too). */
export function successUrl(appUrl: string, sessionId: string) {
  return `${appUrl}/booking-success?session_id=${encodeURIComponent(sessionId)}`;
}

/** A Checkout Session as Stripe has it now, or our message when Stripe cannot say. */
export async function lookUpCheckout(provider: HostedCheckoutProvider, checkoutId: string) {
  try {
    return await provider.retrieveCheckout(checkoutId);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    logError(`Stripe: could not look up Checkout Session ${checkoutId}`, error);
    throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
  }
}

export function hostedProvider(): HostedCheckoutProvider {
  const provider = paymentProvider();
  if (provider.checkout !== "hosted")
    throw new Error("The payment provider has no hosted checkout");
  return provider;
}

export type ChargeResult =
  | { ok: true; transactionId: string; booking: Booking }
  | { ok: false; message: string };

/**
 * The sandbox's card form: the provider decides on the card, then the payment is recorded in
 * one transaction that refuses a booking no longer payable (paid in another tab, or held by
 * a cancellation meanwhile). Nothing leaves the process, so there is nothing to claim.
 */
export function chargeSandboxCard(booking: Booking, card: CardInput, now: number): ChargeResult {
  const provider = paymentProvider();
  if (provider.checkout !== "card-form") throw new Error("The payment provider takes no cards");
  if (!isPayable(booking, now)) return { ok: false, message: notPayableMessage(booking, now) };
  const charge = provider.chargeCard(card);
  if (!charge.ok) return charge;
  const result = recordPayment(
    {
      bookingId: booking.id,
      amount: booking.totalCost,
      method: "card",
      transactionId: charge.transactionId,
      details: { brand: charge.brand, last4: charge.last4 },
    },
    now,
    env.BUFFER_MINUTES,
    { refuseClaimed: true },
  );
  if (result.outcome === "paid") {
    return { ok: true, transactionId: charge.transactionId, booking: result.booking };
  }
  // Two tabs paying at once: the second finds the booking already paid (or being cancelled).
  const current = result.booking;
  return {
    ok: false,
    message:
      current && !isPayable(current, now) ? notPayableMessage(current, now) : ALREADY_PAID_MESSAGE,
  };
}
