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

/**
 * Payments: a provider says a booking was paid (workflows/fulfil-payment.server.ts wraps this
 * in its transaction with the e-mail). Idempotent by construction: the payment's transaction
 * id is unique and a provider event id is stored in the same transaction as its effect, so a
 * double submit, a second tab, a replayed or duplicated webhook and the success page racing
 * the webhook all end in one payment row.
 */
export type PaymentReport = {
  bookingId: number;
  /** Whole dollars actually charged. */
  amount: number;
  method: string;
  transactionId: string;
  /** Brand and last 4 digits only. */
  details: { brand: string; last4: string };
  /** The provider event that reported it, when there is one (webhooks). */
  event?: { id: string; provider: string; type: string };
};

export type FulfilmentOutcome =
  | { outcome: "paid"; booking: Booking; receipt: Receipt }
  | { outcome: "already-recorded"; booking: Booking | undefined }
  | { outcome: "not-payable"; booking: Booking | undefined; reason: string };

export type PaymentOptions = {
  /**
   * Refuse a booking another action holds (a cancellation in flight). The sandbox's card form
   * does: nothing was charged yet. Money a hosted checkout already took is recorded whatever
   * holds the booking, and the holder sees it when it records (never lose track of money).
   */
  refuseClaimed: boolean;
};

/** Records a reported payment in the caller's transaction; the caller queues the e-mail. */
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
  // A hold that ran out released the slot (and, once swept, gave back what it took): a payment
  // arriving after that is taken only while the slot is still free. A swept one is reinstated
  // if it drew no retainer hours and its order's coupon use can be taken again.
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

  // The receipt is issued in this transaction (docs/product.md "Receipts").
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

/**
 * The payment rows a provider's charge made (one per session it paid), with the sessions they
 * paid. A row's reference is the charge's, or the charge's with its booking after it.
 */
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

/** A provider event applied, in the transaction of its effect, so a replay changes nothing. */
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

/** Whether a provider event was already applied (a webhook's replay). */
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

/**
 * A session reinstated after its hold ran out carries its discount again: its order takes the
 * coupon's use back if it had given it up, unless the coupon has no use left.
 */
function retakeOrderCouponUse(tx: Tx, booking: Booking): boolean {
  if (booking.couponId === null || booking.orderId === null) return true;
  const order = tx.select().from(orders).where(eq(orders.id, booking.orderId)).get();
  if (!order) return false;
  if (order.couponId !== null) return true;
  if (!reserveCouponUse(tx, booking.couponId)) return false;
  tx.update(orders).set({ couponId: booking.couponId }).where(eq(orders.id, order.id)).run();
  return true;
}

/**
 * A booking whose hold ran out may still be paid if nobody took its slot meanwhile. Called
 * inside the payment's write transaction, so it reads what that transaction sees.
 */
function slotStillFree(booking: Booking, now: number, bufferMinutes: number): boolean {
  const busy = readBusyRanges(busyWindowFor(booking.recordingDate, bufferMinutes), now, booking.id);
  return !conflictsWith(booking, busy, bufferMinutes);
}

/** The payment a provider's checkout reference points at (the success page's session_id). */
export function getPaymentByTransaction(transactionId: string) {
  return db.select().from(payments).where(eq(payments.transactionId, transactionId)).get();
}

/** A booking's payments and refunds (negative amounts), oldest first: Session Details. */
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

/** Whether anything is paid for a booking, net of refunds (a full refund leaves nothing). */
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

/** Why a booking cannot be paid now, for the customer (isPayable said it cannot). */
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
