import type { Booking } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import type { CardInput } from "#app/domain/card";
import { sessionPaymentReference } from "#app/domain/series-sessions";
import { logError } from "#app/log.server";
import {
  type CheckoutSession,
  type HostedCheckoutProvider,
  type PaymentProvider,
  PaymentProviderError,
} from "#app/integrations/payments/types";
import {
  abandonCheckoutPlan,
  type CheckoutPlan,
  forgetUnansweredPlan,
  getOrder,
  listOrderSessions,
  listUnansweredPlans,
  payableSessions,
  planCheckout,
  storeCheckoutSession,
} from "#app/models/order.server";
import { ALREADY_PAID_MESSAGE, checkoutKey } from "#app/domain/payments";
import { accountEmail } from "#app/models/user.server";
import { recordCheckoutSession, recordPayment } from "#app/workflows/fulfil-payment.server";
import { PAYMENT_SERVICE_UNAVAILABLE_MESSAGE } from "#app/workflows/payment-provider.server";
import { paymentProvider } from "#app/adapters.server";

/**
 * Paying an order at its stored totals (docs/product.md "Orders"). Stripe Checkout: claim the
 * sessions (CHECKOUT_OPEN) in one transaction, call Stripe outside any, record in a second.
 */

/** The hosted checkout cannot be opened; `message` is safe to show to the customer. */
export class CheckoutUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckoutUnavailableError";
  }
}

export { PAYMENT_SERVICE_UNAVAILABLE_MESSAGE };

export const NOTHING_TO_PAY_MESSAGE =
  "Nothing in this series can be paid now: its sessions are paid, cancelled, or no longer held.";

/**
 * Stripe refuses a Checkout Session that expires less than 30 minutes after creation, so each
 * session lasts 31 minutes from when it was planned (and the holds at least as long).
 */
const SESSION_MS = 31 * 60_000;

/** `cancelPath`: the page the customer came from, where Stripe's back link returns. */
export async function openHostedCheckout(
  orderId: number,
  appUrl: string,
  cancelPath: string,
  provider: HostedCheckoutProvider = hostedProvider(),
  notPayable: (sessions: Booking[], now: number) => string = () => NOTHING_TO_PAY_MESSAGE,
): Promise<{ url: string }> {
  // A concurrent request may open a session between our read and our plan: look again.
  for (let round = 0; round < 3; round++) {
    const now = Date.now();
    // Re-read: the prices and the state come from the database, never from the caller.
    const order = getOrder(db, orderId);
    if (!order) throw new CheckoutUnavailableError("This booking does not exist.");
    const sessions = listOrderSessions(db, orderId);
    if (payableSessions(sessions, now).length === 0) {
      throw new CheckoutUnavailableError(notPayable(sessions, now));
    }
    let stale: string | null = null;
    if (order.checkoutSessionId && (order.checkoutExpiresAt ?? 0) > now) {
      const existing = await lookUpCheckout(provider, order.checkoutSessionId);
      if (existing.status === "open" && existing.url) return { url: existing.url };
      if (existing.status === "complete") {
        // Paid, but the webhook has not arrived: record it now rather than charge again.
        recordCheckoutSession(existing);
        return { url: successUrl(appUrl, existing.id) };
      }
      stale = existing.id;
    } else if (order.checkoutSessionId) {
      stale = order.checkoutSessionId;
    }
    const plan = writeTransaction((tx) => planCheckout(tx, orderId, now, SESSION_MS, stale));
    if (plan.kind === "not-payable") {
      throw new CheckoutUnavailableError(
        plan.message ?? notPayable(listOrderSessions(db, orderId), now),
      );
    }
    if (plan.kind === "opened-elsewhere") continue;
    if (plan.kind === "unanswered") {
      try {
        await closeUnanswered(provider, orderId, plan.until);
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        logError(`Stripe: could not close what order ${orderId}'s last plan opened`, error);
        throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
      }
      continue;
    }
    return { url: await createPlanned(provider, plan, appUrl, cancelPath) };
  }
  throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
}

/**
 * A plan abandoned without an answer may have opened a checkout nobody was sent to: it is
 * closed before the order plans again, so it can never charge a plan gone stale (a session
 * paid offline, cancelled). Throws PaymentProviderError.
 */
async function closeUnanswered(provider: HostedCheckoutProvider, orderId: number, until: number) {
  for (const session of await provider.closeCheckoutsOf({ orderId, expiresAt: until })) {
    if (session.status === "complete") recordCheckoutSession(session);
  }
  writeTransaction((tx) => forgetUnansweredPlan(tx, orderId, until));
}

/** The background sweep's part: each order's abandoned plan, whatever left it stale. */
export async function closeUnansweredCheckouts(
  now: number = Date.now(),
  provider: PaymentProvider = paymentProvider(),
): Promise<{ closed: number; failed: number }> {
  const result = { closed: 0, failed: 0 };
  if (provider.checkout !== "hosted") return result;
  for (const { orderId, until } of listUnansweredPlans(db, now)) {
    try {
      await closeUnanswered(provider, orderId, until);
      result.closed += 1;
    } catch (error) {
      // The next sweep tries again; one order never stops the others.
      logError(`Checkout sweeper: order ${orderId}'s abandoned plan`, error);
      result.failed += 1;
    }
  }
  return result;
}

async function createPlanned(
  provider: HostedCheckoutProvider,
  plan: Extract<CheckoutPlan, { kind: "create" }>,
  appUrl: string,
  cancelPath: string,
): Promise<string> {
  const { order, sessions, until } = plan;
  const lines = sessions.map((booking) => ({
    bookingId: booking.id,
    amount: booking.totalCost,
    name: `Studio session #${booking.id}`,
    description: lineDescription(booking),
  }));
  let session: CheckoutSession;
  try {
    session = await provider.createCheckout({
      orderId: order.id,
      lines,
      // Stripe's receipt goes where our e-mails go: the account's own address, never the
      // contact e-mail typed into the booking form (docs/product.md "E-mail").
      customerEmail: accountEmail(db, order.userId),
      successUrl: `${appUrl}/booking-success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${appUrl}${cancelPath}`,
      // Never outlives the holds: a session cannot be paid after its slot was released.
      expiresAt: until,
      // A double submit joining this plan gets the very session we get; another plan, another.
      idempotencyKey: checkoutKey({ orderId: order.id, until, lines }),
    });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    logError(`Stripe: could not open a Checkout Session for order ${order.id}`, error);
    // The next attempt closes what this call may have opened, then plans afresh.
    writeTransaction((tx) => abandonCheckoutPlan(tx, order.id, until));
    throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
  }
  const stored = writeTransaction((tx) => storeCheckoutSession(tx, order.id, until, session.id));
  if (!stored) {
    // The plan was given up while the provider answered: a checkout nobody knows of must not
    // stay open to be paid beside the next one. One paid meanwhile is recorded.
    const closed = await lookUpOrClose(provider, session.id);
    if (closed?.status === "complete") recordCheckoutSession(closed);
    throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
  }
  if (!session.url) throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
  return session.url;
}

async function lookUpOrClose(provider: HostedCheckoutProvider, checkoutId: string) {
  try {
    return await provider.closeCheckout(checkoutId);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    logError(`Stripe: could not close Checkout Session ${checkoutId} of a plan given up`, error);
    return null;
  }
}

export function lineDescription(booking: Booking): string {
  const hours = Number(booking.hoursNeeded);
  return `${sessionDate(booking)}, ${sessionTimeRange(booking)} (Atlanta time), ${hours} ${hours === 1 ? "hour" : "hours"}`;
}

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
  | { ok: true; transactionId: string; paid: Booking[] }
  | { ok: false; message: string };

/** Every session is recorded or none; nothing leaves the process, so nothing to claim. */
export function chargeSandboxCard(
  orderId: number,
  card: CardInput,
  now: number,
  notPayable: (sessions: Booking[], now: number) => string = () => NOTHING_TO_PAY_MESSAGE,
): ChargeResult {
  const provider = paymentProvider();
  if (provider.checkout !== "card-form") throw new Error("The payment provider takes no cards");
  const sessions = listOrderSessions(db, orderId);
  const payable = payableSessions(sessions, now);
  if (payable.length === 0) return { ok: false, message: notPayable(sessions, now) };
  const charge = provider.chargeCard(card);
  if (!charge.ok) return charge;
  const result = recordPayment(
    {
      chargeId: charge.transactionId,
      sessions: payable.map((booking) => ({ bookingId: booking.id, amount: booking.totalCost })),
      details: { brand: charge.brand, last4: charge.last4 },
    },
    now,
    { refuseClaimed: true, allOrNothing: true },
  );
  const first = result.paid[0];
  if (!first) {
    // Two tabs paying at once: the second finds it already paid (or being cancelled).
    const after = listOrderSessions(db, orderId);
    const stillPayable = payableSessions(after, now).length > 0;
    return { ok: false, message: stillPayable ? ALREADY_PAID_MESSAGE : notPayable(after, now) };
  }
  return {
    ok: true,
    // The success page finds the payment by its first row's reference.
    transactionId: sessionPaymentReference(charge.transactionId, first.id, payable.length),
    paid: result.paid,
  };
}
