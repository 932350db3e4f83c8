import type { Booking } from "#db/schema";
import { writeTransaction } from "#app/db.server";
import type { ReceiptDetails } from "#app/domain/receipts";
import { seriesHeading, seriesPaymentReference } from "#app/domain/series-sessions";
import { receiptAttachment } from "#app/emails/receipt-pdf.server";
import { seriesPaymentReceivedEmail } from "#app/emails/templates.server";
import { env } from "#app/env.server";
import { logError, logEvent } from "#app/log.server";
import { metrics } from "#app/metrics.server";
import type { CheckoutSession } from "#app/integrations/payments/types";
import { getBooking } from "#app/models/booking.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { applyPayment, type PaymentReport } from "#app/models/payment.server";
import { getSeries, listSeriesBookings } from "#app/models/series.server";
import { accountEmail } from "#app/models/user.server";

/**
 * Paying a weekly series (docs/product.md "Weekly series"): one charge, one payment row (and
 * receipt) per session, one e-mail listing them all, in one transaction. Idempotent as a
 * single booking's payment is: each row's transaction id is the charge's with the booking
 * after it (unique), and the provider event is stored with them, so a replayed webhook and the
 * success page racing it record every session once.
 */
export type SeriesCharge = {
  seriesId: number;
  /** The provider's reference of the one charge (sandbox id, Stripe PaymentIntent). */
  chargeId: string;
  /** The sessions paid, each for its own total. */
  sessions: { bookingId: number; amount: number }[];
  details: { brand: string; last4: string };
  event?: { id: string; provider: string; type: string };
};

export type SeriesPaymentOutcome = {
  paid: Booking[];
  /** Sessions the charge named that could not take it (cancelled meanwhile): staff refund. */
  refused: { bookingId: number; reason: string }[];
  alreadyRecorded: boolean;
};

/** Thrown inside the transaction to roll back a card-form payment that cannot pay every session. */
class NotAllPayable extends Error {}

export function recordSeriesPayment(
  charge: SeriesCharge,
  now: number,
  options: { refuseClaimed: boolean; allOrNothing: boolean },
): SeriesPaymentOutcome {
  let outcome: SeriesPaymentOutcome;
  try {
    outcome = writeTransaction((tx) => {
      const paid: Booking[] = [];
      const receipts: ReceiptDetails[] = [];
      const refused: SeriesPaymentOutcome["refused"] = [];
      let alreadyRecorded = false;
      charge.sessions.forEach((session, index) => {
        const report: PaymentReport = {
          bookingId: session.bookingId,
          amount: session.amount,
          method: "card",
          transactionId: seriesPaymentReference(charge.chargeId, session.bookingId),
          details: charge.details,
          // The event is stored once, with the last session, so it does not stop the others.
          ...(charge.event && index === charge.sessions.length - 1 ? { event: charge.event } : {}),
        };
        const result = applyPayment(tx, report, now, env.BUFFER_MINUTES, {
          refuseClaimed: options.refuseClaimed,
        });
        if (result.outcome === "paid") {
          paid.push(result.booking);
          receipts.push(result.receipt.details as ReceiptDetails);
        } else if (result.outcome === "already-recorded") {
          alreadyRecorded = true;
        } else {
          refused.push({ bookingId: session.bookingId, reason: result.reason });
        }
      });
      if (options.allOrNothing && (refused.length > 0 || alreadyRecorded)) {
        throw new NotAllPayable();
      }
      const first = paid[0];
      if (first) {
        const series = getSeries(charge.seriesId, tx);
        const all = listSeriesBookings(charge.seriesId, tx);
        enqueueEmail(tx, {
          kind: "payment-received",
          to: accountEmail(first.userId, tx),
          bookingId: first.id,
          ...seriesPaymentReceivedEmail({
            sessions: paid,
            heading: series ? seriesHeading(series.repeatEvery, all) : "your weekly series",
            amount: paid.reduce((sum, booking) => sum + booking.totalCost, 0),
            brand: charge.details.brand,
            last4: charge.details.last4,
            receiptNumbers: receipts.map((receipt) => receipt.number),
          }),
          // Each session's receipt, issued in this transaction (docs/product.md "Receipts").
          attachments: receipts.map((receipt) => receiptAttachment(receipt)),
        });
      }
      return { paid, refused, alreadyRecorded };
    });
  } catch (error) {
    if (!(error instanceof NotAllPayable)) throw error;
    return { paid: [], refused: [], alreadyRecorded: false };
  }
  for (const booking of outcome.paid) {
    metrics.bookingsPaid.inc();
    logEvent("booking paid", { bookingId: booking.id, amount: booking.totalCost });
  }
  return outcome;
}

type EventRef = { id: string; provider: "stripe"; type: string };

/**
 * Records what a series' hosted checkout says: paid for exactly the totals of the sessions it
 * was opened for, in dollars, or nothing (and a log line staff can act on).
 */
export function recordSeriesCheckoutSession(
  session: CheckoutSession,
  series: { id: number; bookingIds: number[] },
  event?: EventRef,
): { paid: boolean; bookingId: number | null } {
  const context = `Stripe: Checkout Session ${session.id} for series ${series.id}`;
  const sessions = series.bookingIds.map((id) => getBooking(id));
  const firstId = series.bookingIds[0] ?? null;
  if (sessions.some((booking) => !booking || booking.seriesId !== series.id)) {
    logError(context, new Error("names a booking that is not in the series; not recorded"));
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
  const result = recordSeriesPayment(
    {
      seriesId: series.id,
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
  for (const { bookingId, reason } of result.refused) {
    // Taken but the session cannot take it (cancelled meanwhile): staff must refund it.
    logError(
      context,
      new Error(`payment ${session.paymentId} for booking ${bookingId} not recorded: ${reason}`),
    );
  }
  const paid = result.paid.length > 0 || result.alreadyRecorded;
  return { paid, bookingId: firstId };
}
