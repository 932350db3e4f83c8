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
import { paymentProvider } from "#app/workflows/payment-provider.server";
import { noteProviderRefund } from "#app/workflows/provider-refunds.server";

/**
 * Fulfilment: a provider says an order's sessions were paid, by the sandbox's card form, a
 * Stripe webhook, or the success page asking Stripe before the webhook came. One charge pays
 * one or more sessions of one order (docs/product.md "Orders"): each session gets its own
 * payment row and receipt, all in one transaction with one e-mail. Every path ends in
 * `recordPayment`, idempotent by each row's transaction id and the event's id, so all of them
 * can race and still make one row per session and one e-mail.
 */
export { WebhookSignatureError };

export type CheckoutVerification = { paid: boolean; bookingId: number | null };

/**
 * What the success page and GET /api/payments/status learn: paid, or not (yet). `pending`:
 * not paid, but it may still be: Stripe has the checkout open or still processing its payment,
 * or could not be asked just now. Worth checking again (docs/product.md "Booking-success page").
 */
export type PaymentCheck = CheckoutVerification & { pending: boolean };

type EventRef = { id: string; provider: string; type: string };

/** One charge at the provider and the sessions it pays, each for its own stored total. */
export type OrderCharge = {
  /** The provider's reference of the charge (sandbox id, Stripe PaymentIntent). */
  chargeId: string;
  sessions: { bookingId: number; amount: number }[];
  details: { brand: string; last4: string };
  event?: EventRef;
};

export type PaymentOutcome = {
  paid: Booking[];
  /** Each paid session's receipt, in the order of `paid`. */
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

/** Thrown inside the transaction to roll back a payment that cannot pay every session. */
class NotAllPayable extends Error {}

/**
 * The payment of each session, its receipt, its history row, the provider event and the one
 * e-mail carrying the receipts: one transaction.
 */
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
        if (result.outcome === "paid") {
          paid.push(result.booking);
          receipts.push(result.receipt);
        } else if (result.outcome === "already-recorded") {
          alreadyRecorded = true;
        } else {
          refused.push({ bookingId: session.bookingId, reason: result.reason });
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

/** A series' payment lists its sessions under the series' name; one session's names it. */
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

/**
 * Records what a hosted checkout says: paid for exactly the stored totals of the sessions it
 * was opened for, in dollars, or nothing (and a log line staff can act on).
 */
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
  // Not paid yet (or an asynchronous method still pending): nothing to record.
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

/**
 * Money a hosted checkout took for a session that can no longer take it (cancelled, paid
 * another way, its slot gone after its hold ran out) is never recorded as a second payment;
 * staff see it on the session's history to refund it (docs/product.md "Orders").
 */
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

/**
 * Asks the provider for a checkout as it is now and records it if paid. `retry`: it could
 * not be asked, and asking later may work.
 */
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
    // The card form recorded the payment before sending the customer on: look it up.
    const payment = getPaymentByTransaction(reference);
    if (!payment) return null;
    // The card form decides at once: never pending.
    return { paid: payment.amount > 0, bookingId: payment.bookingId, pending: false };
  }
  if (!isOwnCheckoutSession(reference)) return null;
  const { retry, stillPaying, ...verification } = await fulfilCheckout(provider, reference);
  // Stripe could not be asked (and may answer later), or says the payment may still come.
  const pending = !verification.paid && (retry || (stillPaying && verification.bookingId !== null));
  return { ...verification, pending };
}

/**
 * Whether a reference is a hosted checkout the site opened: the only kind that can be pending
 * (asked without calling the provider). The success page paces its repeat checks only for these.
 */
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

/** POST /api/payments/webhook: a signed provider event. Throws WebhookSignatureError. */
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
