import { and, desc, eq, gt, sql } from "drizzle-orm";
import { type Booking, bookingHistory, bookings, payments } from "../../db/schema";
import { db, writeTransaction } from "../db.server";
import { canCancel, type RefundQuote, refundQuote } from "../domain/cancellation";
import { formatDollars } from "../domain/pricing";
import { enqueueEmail } from "../services/email/outbox.server";
import { bookingCancelledEmail } from "../services/email/templates.server";
import { env } from "../services/env.server";
import { type PaymentProvider, paymentProvider } from "../services/payments/provider.server";
import {
  getBooking,
  getOwnBooking,
  releaseRetainerHours,
  releaseUnpaidBooking,
  type Tx,
} from "./booking.server";

/**
 * A customer cancelling their own session (product-decisions "Cancel, refund, reschedule").
 * The refund goes through the payment provider first, outside any transaction (a network
 * call must not hold the write lock); it is idempotent per booking and amount, so a double
 * submit or a retry after a crash gets the same refund back. Then one IMMEDIATE transaction
 * cancels the booking, records the refund as a negative payment, gives back what the booking
 * took and queues the e-mail.
 */
export const CANCELLED_BY_CUSTOMER = "Cancelled by the customer";

export class CancellationError extends Error {
  constructor(
    readonly kind: "not-found" | "not-cancellable" | "quote-changed",
    message: string,
    /** The refund as it stands now, when it differs from what the customer was shown. */
    readonly quote?: RefundQuote,
  ) {
    super(message);
    this.name = "CancellationError";
  }
}

export type CancellationSettings = {
  feePercent: number;
  provider: Pick<PaymentProvider, "refund" | "closeCheckout">;
};

export function configuredCancellationSettings(): CancellationSettings {
  return { feePercent: env.CANCELLATION_FEE_PERCENT, provider: paymentProvider() };
}

type Reader = Pick<typeof db, "select">;

/** What the customer has paid for a booking, net of refunds, in whole dollars. */
export function paidFor(bookingId: number, reader: Reader = db): number {
  const row = reader
    .select({ total: sql<number>`coalesce(sum(${payments.amount}), 0)` })
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .get();
  return row?.total ?? 0;
}

/** What cancelling `booking` at `now` would refund: shown before the customer confirms. */
export function cancellationQuote(booking: Booking, now: number, feePercent: number): RefundQuote {
  return refundQuote({ startsAt: booking.startsAt, paid: paidFor(booking.id) }, now, feePercent);
}

/** Why a booking cannot be cancelled by its customer now, or null when it can. */
export function cancelProblem(booking: Booking, now: number): string | null {
  if (canCancel(booking, now)) return null;
  if (booking.status === "CANCELLED") return "This booking is already cancelled.";
  if (booking.startsAt <= now)
    return "This session has already started, so it can no longer be cancelled.";
  return "This session can no longer be cancelled online. Please contact the studio.";
}

export async function cancelOwnBooking(
  input: { bookingId: number; userId: number; expectedRefund?: number | null },
  now: number,
  settings: CancellationSettings = configuredCancellationSettings(),
): Promise<{ booking: Booking; quote: RefundQuote }> {
  let booking = getOwnBooking(input.bookingId, input.userId);
  if (!booking) throw new CancellationError("not-found", "Booking not found");
  const problem = cancelProblem(booking, now);
  if (problem) throw new CancellationError("not-cancellable", problem);

  if (booking.status === "PENDING_PAYMENT") {
    // A hosted checkout left open could still take the money after the cancellation.
    await settings.provider.closeCheckout(booking);
    booking = getBooking(booking.id) ?? booking;
  }

  const quote = cancellationQuote(booking, now, settings.feePercent);
  if (input.expectedRefund != null && input.expectedRefund !== quote.refund) {
    throw new CancellationError(
      "quote-changed",
      `The refund is now ${formatDollars(quote.refund)}, not ${formatDollars(input.expectedRefund)}: please review it and confirm again.`,
      quote,
    );
  }

  let refund: { refundId: string; of: string } | null = null;
  if (quote.refund > 0) {
    const payment = latestCharge(booking.id);
    if (!payment?.transactionId) throw new Error(`Booking ${booking.id} is paid but has no charge`);
    const { refundId } = await settings.provider.refund({
      bookingId: booking.id,
      paymentTransactionId: payment.transactionId,
      amount: quote.refund,
    });
    refund = { refundId, of: payment.transactionId };
  }

  const cancelled = writeTransaction((tx) => {
    const current = getBooking(input.bookingId, tx);
    if (!current) throw new CancellationError("not-found", "Booking not found");
    if (current.status === "CANCELLED") {
      // A concurrent cancellation won; the provider gave both the same refund.
      if (refund) recordRefund(tx, current, refund, quote, now);
      return current;
    }
    // Money already went back: the booking is cancelled whatever happened meanwhile.
    if (!refund && !canCancel(current, now)) {
      throw new CancellationError("not-cancellable", cancelProblem(current, now) ?? "");
    }
    const updated = tx
      .update(bookings)
      .set({
        status: "CANCELLED",
        cancellationReason: CANCELLED_BY_CUSTOMER,
        cancelledAt: now,
        holdExpiresAt: null,
      })
      .where(and(eq(bookings.id, current.id), eq(bookings.status, current.status)))
      .returning()
      .get();
    if (!updated) throw new Error(`Booking ${current.id} changed during its cancellation`);
    if (quote.paid === 0) releaseUnpaidBooking(tx, current);
    else releaseRetainerHours(tx, current);
    if (refund) recordRefund(tx, current, refund, quote, now);
    tx.insert(bookingHistory)
      .values({
        bookingId: current.id,
        actorUserId: input.userId,
        fromStatus: current.status,
        toStatus: "CANCELLED",
        note: historyNote(quote),
        createdAt: now,
      })
      .run();
    enqueueEmail(tx, {
      kind: "booking-cancelled",
      to: updated.email,
      bookingId: updated.id,
      ...bookingCancelledEmail({ booking: updated, quote }),
    });
    return updated;
  });
  return { booking: cancelled, quote };
}

/** The charge a refund goes back to: the booking's (only) positive payment. */
function latestCharge(bookingId: number) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, bookingId), gt(payments.amount, 0)))
    .orderBy(desc(payments.paymentDate), desc(payments.id))
    .get();
}

function recordRefund(
  tx: Tx,
  booking: Booking,
  refund: { refundId: string; of: string },
  quote: RefundQuote,
  now: number,
) {
  tx.insert(payments)
    .values({
      bookingId: booking.id,
      userId: booking.userId,
      amount: -quote.refund,
      paymentMethod: "refund",
      paymentDate: now,
      transactionId: refund.refundId,
      paymentDetails: { refundOf: refund.of, fee: quote.fee },
    })
    .onConflictDoNothing()
    .run();
}

function historyNote(quote: RefundQuote): string {
  if (quote.kind === "unpaid") return `${CANCELLED_BY_CUSTOMER}; nothing was paid`;
  if (quote.kind === "full")
    return `${CANCELLED_BY_CUSTOMER}; refunded ${formatDollars(quote.refund)} in full`;
  return `${CANCELLED_BY_CUSTOMER} within 24 hours; refunded ${formatDollars(quote.refund)}, kept a ${formatDollars(quote.fee)} fee`;
}
