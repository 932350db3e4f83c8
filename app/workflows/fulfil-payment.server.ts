import type { Booking } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { formatDollars } from "#app/domain/pricing";
import type { ReceiptDetails } from "#app/domain/receipts";
import { seriesHeading, sessionPaymentReference } from "#app/domain/series-sessions";
import { receiptAttachment } from "#app/emails/receipt-pdf.server";
import { paymentReceivedEmail, seriesPaymentReceivedEmail } from "#app/emails/templates.server";
import { env } from "#app/env.server";
import { logError, logEvent } from "#app/log.server";
import { metrics } from "#app/metrics.server";
import type {
  CheckoutSession,
  HostedCheckoutProvider,
  PaymentProvider,
} from "#app/integrations/payments/types";
import { PaymentProviderError, WebhookSignatureError } from "#app/integrations/payments/types";
import { getBooking, noteForStaffOnce, type Tx } from "#app/models/booking.server";
import type { Receipt } from "#app/models/receipt.server";
import { getOrder, isOwnCheckoutSession, listOrderSessions } from "#app/models/order.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { accountEmail } from "#app/models/user.server";
import { eventSeen, getPaymentByTransaction } from "#app/models/payment.server";
import {
  applyPayment,
  type PaymentOptions,
  type PaymentReport,
} from "#app/workflows/apply-payment.server";
import { paymentProvider } from "#app/adapters.server";
import { noteProviderRefund } from "#app/workflows/provider-refunds.server";

/**
 * Every path that learns of a payment (card form, webhook, success page) ends in `recordPayment`,
 * idempotent by transaction id and event id, so they can race (docs/product.md "Orders").
 */
export { WebhookSignatureError };

export type CheckoutVerification = { paid: boolean; bookingId: number | null };

/** `pending`: not paid yet but may still be (docs/product.md "Booking-success page"). */
export type PaymentCheck = CheckoutVerification & { pending: boolean };

type EventRef = { id: string; provider: string; type: string };

export type OrderCharge = {
  /** The provider's reference of the charge (sandbox id, Stripe PaymentIntent). */
  chargeId: string;
  sessions: { bookingId: number; amount: number }[];
  details: { brand: string; last4: string };
  event?: EventRef;
};

export type PaymentOutcome = {
  paid: Booking[];
  receipts: Receipt[];
  /** Sessions the charge named that could not take it (cancelled meanwhile): staff refund. */
  refused: { bookingId: number; reason: string }[];
  alreadyRecorded: boolean;
};

export type ChargeOptions = PaymentOptions & {
  /** The card form's charge pays every session or none (nothing was taken yet if refused). */
  allOrNothing: boolean;
  /** BUFFER_MINUTES unless a test says otherwise (reinstating a lapsed hold checks the slot). */
  bufferMinutes?: number;
};

class NotAllPayable extends Error {}

export function recordPayment(
  charge: OrderCharge,
  now: number,
  options: ChargeOptions = { refuseClaimed: false, allOrNothing: false },
): PaymentOutcome {
  let outcome: PaymentOutcome;
  try {
    outcome = writeTransaction((tx) => {
      const paid: Booking[] = [];
      const receipts: Receipt[] = [];
      const refused: PaymentOutcome["refused"] = [];
      let alreadyRecorded = false;
      charge.sessions.forEach((session, index) => {
        const report: PaymentReport = {
          bookingId: session.bookingId,
          amount: session.amount,
          method: "card",
          transactionId: sessionPaymentReference(
            charge.chargeId,
            session.bookingId,
            charge.sessions.length,
          ),
          details: charge.details,
          // The event is stored once, with the last session, so it does not stop the others.
          ...(charge.event && index === charge.sessions.length - 1 ? { event: charge.event } : {}),
        };
        const buffer = options.bufferMinutes ?? env.BUFFER_MINUTES;
        const result = applyPayment(tx, report, now, buffer, options);
        if (!result.ok) {
          refused.push({ bookingId: session.bookingId, reason: result.reason });
        } else if (result.recorded === "now") {
          paid.push(result.booking);
          receipts.push(result.receipt);
        } else {
          alreadyRecorded = true;
        }
      });
      if (options.allOrNothing && (refused.length > 0 || alreadyRecorded)) {
        throw new NotAllPayable();
      }
      if (paid.length > 0) queuePaymentEmail(tx, paid, receipts, charge);
      return { paid, receipts, refused, alreadyRecorded };
    });
  } catch (error) {
    if (!(error instanceof NotAllPayable)) throw error;
    return { paid: [], receipts: [], refused: [], alreadyRecorded: false };
  }
  for (const booking of outcome.paid) {
    metrics.bookingsPaid.inc();
    logEvent("booking paid", { bookingId: booking.id, amount: booking.totalCost });
  }
  return outcome;
}

function queuePaymentEmail(tx: Tx, paid: Booking[], issued: Receipt[], charge: OrderCharge) {
  const receipts = issued.map((receipt) => receipt.details as ReceiptDetails);
  const first = paid[0] as Booking;
  const order = first.orderId === null ? undefined : getOrder(tx, first.orderId);
  const amount = paid.reduce((sum, booking) => sum + booking.totalCost, 0);
  const { brand, last4 } = charge.details;
  enqueueEmail(tx, {
    kind: "payment-received",
    to: accountEmail(tx, first.userId),
    bookingId: first.id,
    ...(order?.repeatEvery
      ? seriesPaymentReceivedEmail({
          sessions: paid,
          heading: seriesHeading(order.repeatEvery, listOrderSessions(tx, order.id)),
          amount,
          brand,
          last4,
          receiptNumbers: receipts.map((receipt) => receipt.number),
        })
      : paymentReceivedEmail({
          booking: first,
          amount,
          brand,
          last4,
          receiptNumber: receipts[0]?.number,
        })),
    // Each session's receipt, issued in this transaction (docs/product.md "Receipts").
    attachments: receipts.map((receipt) => receiptAttachment(receipt)),
  });
}

/** Records a hosted checkout only if it paid exactly its sessions' stored totals in dollars. */
export function recordCheckoutSession(
  session: CheckoutSession,
  event?: EventRef,
): CheckoutVerification {
  const context = `Stripe: Checkout Session ${session.id}`;
  const named = session.order;
  if (!named || named.bookingIds.length === 0) {
    logError(context, new Error("carries no booking id"));
    return { paid: false, bookingId: null };
  }
  const sessions = named.bookingIds.map((id) => getBooking(db, id));
  const firstId = named.bookingIds[0] ?? null;
  const orderId = sessions[0]?.orderId ?? null;
  if (
    sessions.some(
      (booking) =>
        !booking ||
        booking.orderId !== orderId ||
        (named.id !== null && booking.orderId !== named.id),
    )
  ) {
    logError(context, new Error("names a booking that is not in its order; not recorded"));
    return { paid: false, bookingId: null };
  }
  if (!session.paid) return { paid: false, bookingId: firstId };
  const expected = sessions.reduce((sum, booking) => sum + (booking?.totalCost ?? 0), 0) * 100;
  if (session.currency !== "usd" || session.amountTotal !== expected) {
    logError(
      context,
      new Error(
        `paid ${session.amountTotal ?? "?"} ${session.currency ?? "?"} but its sessions cost ${expected} usd; not recorded`,
      ),
    );
    return { paid: false, bookingId: firstId };
  }
  if (!session.paymentId) {
    logError(context, new Error("is paid but has no payment intent; not recorded"));
    return { paid: false, bookingId: firstId };
  }
  const result = recordPayment(
    {
      chargeId: session.paymentId,
      sessions: sessions.map((booking) => ({
        bookingId: booking?.id ?? 0,
        amount: booking?.totalCost ?? 0,
      })),
      details: session.card,
      ...(event ? { event } : {}),
    },
    Date.now(),
    // Money a hosted checkout took is recorded whatever holds a session (never lose money).
    { refuseClaimed: false, allOrNothing: false },
  );
  if (result.refused.length > 0) showUnappliedToStaff(session.paymentId, result.refused);
  for (const { bookingId, reason } of result.refused) {
    logError(
      context,
      new Error(`payment ${session.paymentId} for booking ${bookingId} not recorded: ${reason}`),
    );
  }
  return { paid: result.paid.length > 0 || result.alreadyRecorded, bookingId: firstId };
}

/** Money a session can no longer take goes to staff to refund (docs/product.md "Orders"). */
function showUnappliedToStaff(paymentId: string, refused: PaymentOutcome["refused"]) {
  const now = Date.now();
  writeTransaction((tx) => {
    for (const { bookingId, reason } of refused) {
      const booking = getBooking(tx, bookingId);
      if (!booking) continue;
      noteForStaffOnce(
        tx,
        booking,
        `Stripe took ${formatDollars(booking.totalCost)} for this session in ${paymentId}, but it could not be recorded (${reason}): refund it in the Stripe dashboard.`,
        now,
      );
    }
  });
}

/** `retry`: the provider could not be asked, and asking later may work. */
async function fulfilCheckout(
  provider: HostedCheckoutProvider,
  checkoutId: string,
  event?: EventRef,
): Promise<CheckoutVerification & { retry: boolean; stillPaying: boolean }> {
  let session: CheckoutSession;
  try {
    session = await provider.retrieveCheckout(checkoutId);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    logError(`Stripe: could not look up Checkout Session ${checkoutId}`, error);
    return { paid: false, bookingId: null, retry: error.retryable, stillPaying: false };
  }
  // Open, or complete with the money not taken yet (a payment still processing): it may
  // still be paid. Expired can no longer be.
  const stillPaying = !session.paid && session.status !== "expired";
  return { ...recordCheckoutSession(session, event), retry: false, stillPaying };
}

/**
 * The success page's `session_id` (and GET /api/payments/status): paid or not, recording the
 * payment if the provider took it and the webhook has not come yet. Null for a reference the
 * site did not create: the provider is asked only about checkouts stored on a booking here, so
 * the page cannot be used to make the site look up ids for someone else.
 */
export async function verifyCheckout(
  reference: string,
  provider: PaymentProvider = paymentProvider(),
): Promise<PaymentCheck | null> {
  if (!provider.isCheckoutReference(reference)) return null;
  if (provider.checkout === "card-form") {
    const payment = getPaymentByTransaction(reference);
    if (!payment) return null;
    return { paid: payment.amount > 0, bookingId: payment.bookingId, pending: false };
  }
  if (!isOwnCheckoutSession(reference)) return null;
  const { retry, stillPaying, ...verification } = await fulfilCheckout(provider, reference);
  // Stripe could not be asked (and may answer later), or says the payment may still come.
  const pending = !verification.paid && (retry || (stillPaying && verification.bookingId !== null));
  return { ...verification, pending };
}

/** Only a hosted checkout the site opened can be pending; decided without calling the provider. */
export function mayBePending(
  reference: string,
  provider: PaymentProvider = paymentProvider(),
): boolean {
  return (
    provider.checkout === "hosted" &&
    provider.isCheckoutReference(reference) &&
    isOwnCheckoutSession(reference)
  );
}

/**
 * `retry`: the event is genuine but could not be applied now (the provider unreachable);
 * answer non-2xx so it is sent again later. Nothing was recorded for it.
 */
export type WebhookOutcome = "fulfilled" | "not-fulfilled" | "duplicate" | "ignored" | "retry";

const FULFILLING_EVENTS = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
]);

/** Throws WebhookSignatureError. */
export async function handlePaymentWebhook(
  rawBody: string,
  signature: string | null,
  provider: PaymentProvider = paymentProvider(),
): Promise<WebhookOutcome> {
  if (provider.checkout !== "hosted") throw new Error("Only a hosted checkout sends webhooks");
  const event = provider.verifyWebhook(rawBody, signature);
  if (event.type === "refund.created" && event.refund) {
    const noted = noteProviderRefund(event, event.refund, Date.now());
    return noted === "duplicate" ? "duplicate" : "ignored";
  }
  if (!FULFILLING_EVENTS.has(event.type) || !event.checkoutId) return "ignored";
  // A replay needs no call to the provider (recordPayment would also see it, changing nothing).
  if (eventSeen(db, event.id)) return "duplicate";

  // Ask for the checkout as it is now (not the event's snapshot): events can arrive out of
  // order, and the card details need the expanded charge.
  const result = await fulfilCheckout(provider, event.checkoutId, {
    id: event.id,
    provider: "stripe",
    type: event.type,
  });
  if (result.retry) return "retry";
  return result.paid ? "fulfilled" : "not-fulfilled";
}
