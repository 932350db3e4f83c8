import { and, asc, eq, gt, or, sql } from "drizzle-orm";
import {
  type Booking,
  bookingHistory,
  bookings,
  orders,
  payments,
  processedPaymentEvents,
} from "#db/schema";
import { db } from "#app/db.server";
import { busyWindowFor, conflictsWith } from "#app/domain/availability";
import { claimProblem } from "#app/domain/booking-claim";
import { isPaymentOfCharge } from "#app/domain/series-sessions";
import { HOLD_EXPIRED_REASON, readBusyRanges, type Tx } from "#app/models/booking.server";
import { reserveCouponUse } from "#app/models/coupon.server";
import { insertPayment, type Receipt } from "#app/models/receipt.server";

/** Idempotent: the transaction id is unique and a provider event id is stored with its effect, so any race or replay ends in one payment row. */
export type PaymentReport = {
  bookingId: number;
  amount: number;
  method: string;
  transactionId: string;
  details: { brand: string; last4: string };
  event?: { id: string; provider: string; type: string };
};

export type FulfilmentOutcome =
  | { outcome: "paid"; booking: Booking; receipt: Receipt }
  | { outcome: "already-recorded"; booking: Booking | undefined }
  | { outcome: "not-payable"; booking: Booking | undefined; reason: string };

export type PaymentOptions = {
  /** Money a hosted checkout already took is recorded whatever holds the booking (never lose track of money). */
  refuseClaimed: boolean;
};

/** The caller queues the e-mail. */
export function applyPayment(
  tx: Tx,
  report: PaymentReport,
  now: number,
  bufferMinutes: number,
  options: PaymentOptions,
): FulfilmentOutcome {
  const booking = tx.select().from(bookings).where(eq(bookings.id, report.bookingId)).get();
  if (report.event && eventSeen(tx, report.event.id)) {
    return { outcome: "already-recorded" as const, booking };
  }
  const existing = tx
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.transactionId, report.transactionId))
    .get();
  if (existing) {
    markEventSeen(tx, report, now);
    return { outcome: "already-recorded" as const, booking };
  }
  if (!booking) return { outcome: "not-payable" as const, booking, reason: "No such booking" };
  if (report.amount !== booking.totalCost) {
    // Never mark a booking paid for a different sum; staff see it in the logs.
    return {
      outcome: "not-payable" as const,
      booking,
      reason: `Amount ${report.amount} does not match the booking total ${booking.totalCost}`,
    };
  }
  // A lapsed hold is taken only while the slot is still free; a swept one is reinstated if it drew no retainer hours and its coupon use can be retaken.
  const lapsed =
    booking.status === "PENDING_PAYMENT"
      ? (booking.holdExpiresAt ?? 0) <= now
      : booking.status === "CANCELLED" && booking.cancellationReason === HOLD_EXPIRED_REASON;
  if (booking.status !== "PENDING_PAYMENT" && !lapsed) {
    return { outcome: "not-payable" as const, booking, reason: `Booking is ${booking.status}` };
  }
  if (lapsed && !slotStillFree(booking, now, bufferMinutes)) {
    return {
      outcome: "not-payable" as const,
      booking,
      reason: "Its hold ran out and its time slot has since been taken",
    };
  }
  const held = options.refuseClaimed ? claimProblem(booking.claim) : null;
  if (held) return { outcome: "not-payable" as const, booking, reason: held };
  if (
    booking.status === "CANCELLED" &&
    (booking.retainerHoursDrawn > 0 || !retakeOrderCouponUse(tx, booking))
  ) {
    return {
      outcome: "not-payable" as const,
      booking,
      reason: "Its hold ran out and what it drew (retainer hours, a coupon use) is gone",
    };
  }

  // docs/product.md "Receipts": issued in this transaction.
  const recorded = insertPayment(
    tx,
    {
      bookingId: booking.id,
      userId: booking.userId,
      amount: report.amount,
      paymentMethod: report.method,
      paymentDate: now,
      transactionId: report.transactionId,
      paymentDetails: report.details,
    },
    { issuedAt: now },
  );
  if (!recorded) throw new Error("Payment not recorded");
  const paid = tx
    .update(bookings)
    .set({
      status: "PENDING",
      holdExpiresAt: null,
      cancellationReason: null,
      cancelledAt: null,
    })
    .where(and(eq(bookings.id, booking.id), eq(bookings.status, booking.status)))
    .returning()
    .get();
  if (!paid) throw new Error("Booking changed during payment");
  tx.insert(bookingHistory)
    .values({
      bookingId: booking.id,
      actorUserId: booking.userId,
      fromStatus: booking.status,
      toStatus: "PENDING",
      note:
        booking.status === "CANCELLED"
          ? "Paid after the hold ran out; the slot was still free"
          : "Paid by card",
      createdAt: now,
    })
    .run();
  markEventSeen(tx, report, now);
  return { outcome: "paid" as const, booking: paid, receipt: recorded.receipt };
}

/** A row's reference is the charge's, or the charge's with its booking after it. */
export function paymentsOfCharge(tx: Tx, chargeId: string) {
  return tx
    .select({ payment: payments, booking: bookings })
    .from(payments)
    .innerJoin(bookings, eq(bookings.id, payments.bookingId))
    .where(
      and(
        gt(payments.amount, 0),
        or(
          eq(payments.transactionId, chargeId),
          sql`substr(${payments.transactionId}, 1, ${chargeId.length + 1}) = ${`${chargeId}:`}`,
        ),
      ),
    )
    .all()
    .filter(({ payment }) => isPaymentOfCharge(payment.transactionId ?? "", chargeId));
}

export function recordEventSeen(
  tx: Tx,
  event: { id: string; provider: string; type: string },
  bookingId: number | null,
  now: number,
) {
  tx.insert(processedPaymentEvents)
    .values({ ...event, bookingId, processedAt: now })
    .onConflictDoNothing()
    .run();
}

export function eventSeen(reader: Pick<Tx, "select">, eventId: string): boolean {
  return (
    reader
      .select({ id: processedPaymentEvents.id })
      .from(processedPaymentEvents)
      .where(eq(processedPaymentEvents.id, eventId))
      .get() !== undefined
  );
}

function markEventSeen(tx: Tx, report: PaymentReport, now: number) {
  if (report.event) recordEventSeen(tx, report.event, report.bookingId, now);
}

function retakeOrderCouponUse(tx: Tx, booking: Booking): boolean {
  if (booking.couponId === null || booking.orderId === null) return true;
  const order = tx.select().from(orders).where(eq(orders.id, booking.orderId)).get();
  if (!order) return false;
  if (order.couponId !== null) return true;
  if (!reserveCouponUse(tx, booking.couponId)) return false;
  tx.update(orders).set({ couponId: booking.couponId }).where(eq(orders.id, order.id)).run();
  return true;
}

function slotStillFree(booking: Booking, now: number, bufferMinutes: number): boolean {
  const busy = readBusyRanges(busyWindowFor(booking.recordingDate, bufferMinutes), now, booking.id);
  return !conflictsWith(booking, busy, bufferMinutes);
}

export function getPaymentByTransaction(transactionId: string) {
  return db.select().from(payments).where(eq(payments.transactionId, transactionId)).get();
}

export function listBookingPayments(bookingId: number) {
  return db
    .select({
      id: payments.id,
      amount: payments.amount,
      paymentMethod: payments.paymentMethod,
      paymentDate: payments.paymentDate,
      paymentDetails: payments.paymentDetails,
    })
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .orderBy(asc(payments.paymentDate), asc(payments.id))
    .all();
}

export function hasPayment(bookingId: number): boolean {
  const row = db
    .select({ total: sql<number>`coalesce(sum(${payments.amount}), 0)` })
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .get();
  return (row?.total ?? 0) > 0;
}

export const ALREADY_PAID_MESSAGE = "This booking has already been paid.";
export const HOLD_EXPIRED_MESSAGE =
  "The hold on this time slot has run out, so it was released. Please book again.";

export function notPayableMessage(booking: Booking, now: number): string {
  if (booking.status === "PENDING_PAYMENT" && (booking.holdExpiresAt ?? 0) <= now) {
    return HOLD_EXPIRED_MESSAGE;
  }
  if (booking.status === "CANCELLED") {
    // The list cancels a run-out hold before the customer opens it: still say why.
    return booking.cancellationReason === HOLD_EXPIRED_REASON
      ? HOLD_EXPIRED_MESSAGE
      : "This booking was cancelled.";
  }
  if (booking.totalCost === 0) return "This booking is free: there is nothing to pay.";
  const held = booking.status === "PENDING_PAYMENT" ? claimProblem(booking.claim) : null;
  return held ?? ALREADY_PAID_MESSAGE;
}
