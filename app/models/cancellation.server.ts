import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import { type Booking, bookingHistory, bookings, payments } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import { statusChangeProblem } from "#app/domain/admin-workflow";
import { claimProblem } from "#app/domain/booking-claim";
import { canCancel, type RefundQuote, refundQuote } from "#app/domain/cancellation";
import { CLAIM_CLEARED } from "#app/models/booking-claim.server";
import { releaseCancelledSession } from "#app/models/booking.server";
import { insertPayment, type Receipt } from "#app/models/receipt.server";

export const CANCELLED_BY_CUSTOMER = "Cancelled by the customer";
export const CANCELLED_BY_STUDIO = "Cancelled by the studio";

type Reader = Pick<typeof db, "select">;

export function paidFor(reader: Reader, bookingId: number): number {
  const row = reader
    .select({ total: sql<number>`coalesce(sum(${payments.amount}), 0)` })
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .get();
  return row?.total ?? 0;
}

export function cancellationQuote(
  reader: Reader,
  booking: Booking,
  now: number,
  feePercent: number,
): RefundQuote {
  return refundQuote(
    { startsAt: booking.startsAt, paid: paidFor(reader, booking.id) },
    now,
    feePercent,
  );
}

export function cancelProblem(reader: Reader, booking: Booking, now: number): string | null {
  if (booking.status === "CANCELLED") return "This booking is already cancelled.";
  const held = claimProblem(booking.claim);
  if (held) return held;
  if (!canCancel(booking, now)) {
    return booking.startsAt <= now
      ? "This session has already started, so it can no longer be cancelled."
      : "This session can no longer be cancelled online. Please contact the studio.";
  }
  // Refunding a package whose hours later sessions use would make those sessions free.
  if (booking.isRetainer && retainerInUse(reader, booking.id)) {
    return "Other sessions use hours of this retainer package, so it cannot be cancelled online. Please contact the studio.";
  }
  return null;
}

export function studioCancelProblem(reader: Reader, booking: Booking): string | null {
  const problem = statusChangeProblem(booking.status, "CANCELLED") ?? claimProblem(booking.claim);
  if (problem) return problem;
  if (booking.isRetainer && retainerInUse(reader, booking.id)) {
    return "Other sessions use hours of this retainer package: cancel those sessions first.";
  }
  return null;
}

function retainerInUse(reader: Reader, retainerBookingId: number): boolean {
  const drawing = reader
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.retainerBookingId, retainerBookingId),
        gt(bookings.retainerHoursDrawn, 0),
        ne(bookings.status, "CANCELLED"),
      ),
    )
    .get();
  return drawing !== undefined;
}

export function latestCharge(bookingId: number) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, bookingId), gt(payments.amount, 0)))
    .orderBy(desc(payments.paymentDate), desc(payments.id))
    .get();
}

export type RecordedRefund = { refundId: string; amount: number; of: string };

/** Undefined when `current` changed meanwhile. */
export function writeCancellation(
  tx: Tx,
  current: Booking,
  change: {
    reason: string;
    actorUserId: number | null;
    note: string;
    quote: RefundQuote;
    refund: RecordedRefund | null;
    now: number;
  },
): { booking: Booking; creditNote: Receipt | undefined } | undefined {
  const updated = tx
    .update(bookings)
    .set({
      status: "CANCELLED",
      cancellationReason: change.reason,
      cancelledAt: change.now,
      holdExpiresAt: null,
      ...CLAIM_CLEARED,
    })
    .where(and(eq(bookings.id, current.id), eq(bookings.status, current.status)))
    .returning()
    .get();
  if (!updated) return undefined;
  releaseCancelledSession(tx, current);
  const creditNote = change.refund
    ? writeRefund(tx, current, change.refund, change.now)
    : undefined;
  tx.insert(bookingHistory)
    .values({
      bookingId: current.id,
      actorUserId: change.actorUserId,
      fromStatus: current.status,
      toStatus: "CANCELLED",
      note: change.note,
      createdAt: change.now,
    })
    .run();
  return { booking: updated, creditNote };
}

/** docs/product.md "Receipts": a repeated refund (same provider id) is kept once. */
export function writeRefund(
  tx: Tx,
  booking: Booking,
  refund: RecordedRefund,
  now: number,
): Receipt | undefined {
  return insertPayment(
    tx,
    {
      bookingId: booking.id,
      userId: booking.userId,
      amount: -refund.amount,
      paymentMethod: "refund",
      paymentDate: now,
      transactionId: refund.refundId,
      paymentDetails: { refundOf: refund.of, fee: booking.totalCost - refund.amount },
    },
    { skipDuplicate: true, issuedAt: now },
  )?.receipt;
}
