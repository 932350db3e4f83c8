import { writeTransaction } from "#app/db.server";
import type { ReceiptDetails } from "#app/domain/receipts";
import { receiptAttachment } from "#app/emails/receipt-pdf.server";
import { paymentReceivedEmail } from "#app/emails/templates.server";
import { env } from "#app/env.server";
import { logError, logEvent } from "#app/log.server";
import { metrics } from "#app/metrics.server";
import type {
  CheckoutSession,
  HostedCheckoutProvider,
  PaymentProvider,
} from "#app/integrations/payments/types";
import { PaymentProviderError, WebhookSignatureError } from "#app/integrations/payments/types";
import { getBooking } from "#app/models/booking.server";
import { isOwnCheckoutSession } from "#app/models/checkout.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { accountEmail } from "#app/models/user.server";
import {
  applyPayment,
  eventSeen,
  type FulfilmentOutcome,
  getPaymentByTransaction,
  type PaymentOptions,
  type PaymentReport,
} from "#app/models/payment.server";
import { paymentProvider } from "#app/workflows/payment-provider.server";
import { isOwnSeriesCheckoutSession } from "#app/models/series.server";
import { recordSeriesCheckoutSession } from "#app/workflows/fulfil-series-payment.server";

/**
 * Fulfilment: a provider says a booking was paid, by the sandbox's card form, a Stripe
 * webhook, or the success page asking Stripe before the webhook came. Every path ends in
 * `recordPayment`, idempotent by the payment's transaction id and the event's id, so all of
 * them can race and still make one payment row and one e-mail.
 */
export { WebhookSignatureError };

export type CheckoutVerification = { paid: boolean; bookingId: number | null };

/**
 * What the success page and GET /api/payments/status learn: paid, or not (yet). `pending`:
 * not paid, but it may still be: Stripe has the checkout open or still processing its payment,
 * or could not be asked just now. Worth checking again (docs/product.md "Booking-success page").
 */
export type PaymentCheck = CheckoutVerification & { pending: boolean };

/**
 * The payment, its receipt, its history row, the provider event and the e-mail carrying the
 * receipt: one transaction.
 */
export function recordPayment(
  report: PaymentReport,
  now: number,
  bufferMinutes: number,
  options: PaymentOptions = { refuseClaimed: false },
): FulfilmentOutcome {
  const recorded = writeTransaction((tx) => {
    const result = applyPayment(tx, report, now, bufferMinutes, options);
    if (result.outcome === "paid") {
      enqueueEmail(tx, {
        kind: "payment-received",
        to: accountEmail(result.booking.userId, tx),
        bookingId: result.booking.id,
        ...paymentReceivedEmail({
          booking: result.booking,
          amount: report.amount,
          brand: report.details.brand,
          last4: report.details.last4,
          receiptNumber: (result.receipt.details as ReceiptDetails).number,
        }),
        // The receipt, issued in this transaction (docs/product.md "Receipts").
        attachments: [receiptAttachment(result.receipt.details as ReceiptDetails)],
      });
    }
    return result;
  });
  if (recorded.outcome === "paid") {
    metrics.bookingsPaid.inc();
    logEvent("booking paid", { bookingId: recorded.booking.id, amount: report.amount });
  }
  return recorded;
}

type EventRef = { id: string; provider: "stripe"; type: string };

/**
 * Records what a hosted checkout says: paid for the booking's own total, in dollars, with a
 * payment reference, or nothing (and a log line staff can act on).
 */
export function recordCheckoutSession(
  session: CheckoutSession,
  event?: EventRef,
): CheckoutVerification {
  // A weekly series' checkout pays each of its sessions (docs/product.md "Weekly series").
  if (session.series) return recordSeriesCheckoutSession(session, session.series, event);
  const context = `Stripe: Checkout Session ${session.id}`;
  const bookingId = session.bookingId;
  if (bookingId === null) {
    logError(context, new Error("carries no booking id"));
    return { paid: false, bookingId: null };
  }
  const booking = getBooking(bookingId);
  if (!booking) {
    logError(context, new Error(`names booking ${bookingId}, which does not exist`));
    return { paid: false, bookingId: null };
  }
  // Not paid yet (or an asynchronous method still pending): nothing to record.
  if (!session.paid) return { paid: false, bookingId };

  const expected = booking.totalCost * 100;
  if (session.currency !== "usd" || session.amountTotal !== expected) {
    logError(
      context,
      new Error(
        `paid ${session.amountTotal ?? "?"} ${session.currency ?? "?"} but booking ${bookingId} costs ${expected} usd; not recorded`,
      ),
    );
    return { paid: false, bookingId };
  }
  if (!session.paymentId) {
    logError(context, new Error("is paid but has no payment intent; not recorded"));
    return { paid: false, bookingId };
  }

  const result = recordPayment(
    {
      bookingId,
      amount: expected / 100,
      method: "card",
      transactionId: session.paymentId,
      details: session.card,
      ...(event ? { event } : {}),
    },
    Date.now(),
    env.BUFFER_MINUTES,
  );
  if (result.outcome === "not-payable") {
    // Money was taken but the booking cannot take it (cancelled, or paid another way): staff
    // must refund. Never recorded as a second payment.
    logError(
      context,
      new Error(
        `payment ${session.paymentId} for booking ${bookingId} not recorded: ${result.reason}`,
      ),
    );
    return { paid: false, bookingId };
  }
  return { paid: true, bookingId };
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
  if (!isOwnCheckoutSession(reference) && !isOwnSeriesCheckoutSession(reference)) return null;
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
    (isOwnCheckoutSession(reference) || isOwnSeriesCheckoutSession(reference))
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
  if (!FULFILLING_EVENTS.has(event.type) || !event.checkoutId) return "ignored";
  // A replay needs no call to the provider (recordPayment would also see it, changing nothing).
  if (eventSeen(event.id)) return "duplicate";

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
