import type { Booking } from "#db/schema";
import type { Tx } from "#app/db.server";
import { busyWindowFor, conflictsWith } from "#app/domain/availability";
import { DRAW_GONE, holdLapsed, judgePayment } from "#app/domain/payments";
import { getBooking, readBusyRanges, recordBookingHistory } from "#app/models/booking.server";
import { retakeOrderCouponUse } from "#app/models/coupon.server";
import {
  eventSeen,
  markBookingPaid,
  paymentRecorded,
  recordEventSeen,
} from "#app/models/payment.server";
import { insertPayment, type Receipt } from "#app/models/receipt.server";

/**
 * One session's payment as a provider reports it, in the caller's transaction
 * (workflows/fulfil-payment.server.ts, which queues the e-mail): what the rules of
 * domain/payments.ts allow, with the slot read and the coupon use taken here.
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
  /** Refuse a booking another action holds (domain/payments.ts `judgePayment`). */
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
  const booking = getBooking(tx, report.bookingId);
  if (report.event && eventSeen(tx, report.event.id)) {
    return { outcome: "already-recorded", booking };
  }
  if (paymentRecorded(tx, report.transactionId)) {
    markEventSeen(tx, report, now);
    return { outcome: "already-recorded", booking };
  }
  if (!booking) return { outcome: "not-payable", booking, reason: "No such booking" };
  const verdict = judgePayment(booking, {
    amount: report.amount,
    now,
    slotFree: !holdLapsed(booking, now) || slotStillFree(booking, now, bufferMinutes),
    refuseClaimed: options.refuseClaimed,
  });
  if (!verdict.ok) return { outcome: "not-payable", booking, reason: verdict.reason };
  if (verdict.reinstates && !retakeOrderCouponUse(tx, booking)) {
    return { outcome: "not-payable", booking, reason: DRAW_GONE };
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
  const paid = markBookingPaid(tx, booking);
  if (!paid) throw new Error("Booking changed during payment");
  recordBookingHistory(tx, {
    bookingId: booking.id,
    actorUserId: booking.userId,
    fromStatus: booking.status,
    toStatus: "PENDING",
    note: verdict.note,
    createdAt: now,
  });
  markEventSeen(tx, report, now);
  return { outcome: "paid", booking: paid, receipt: recorded.receipt };
}

function markEventSeen(tx: Tx, report: PaymentReport, now: number) {
  if (report.event) recordEventSeen(tx, report.event, report.bookingId, now);
}

/** A lapsed hold's slot, as the caller's transaction sees it (one connection): still free. */
function slotStillFree(booking: Booking, now: number, bufferMinutes: number): boolean {
  const busy = readBusyRanges(busyWindowFor(booking.recordingDate, bufferMinutes), now, booking.id);
  return !conflictsWith(booking, busy, bufferMinutes);
}
