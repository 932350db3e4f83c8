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

/** Idempotent: the transaction id is unique, a provider event id is stored with its effect. */
export type PaymentReport = {
  bookingId: number;
  amount: number;
  method: string;
  transactionId: string;
  details: { brand: string; last4: string };
  event?: { id: string; provider: string; type: string };
};

/** Not payable is a value, not a Refusal: the charge's other sessions still go through. */
export type FulfilmentOutcome =
  | { ok: true; recorded: "now"; booking: Booking; receipt: Receipt }
  | { ok: true; recorded: "already"; booking: Booking | undefined }
  | { ok: false; booking: Booking | undefined; reason: string };

export type PaymentOptions = {
  /** Money a hosted checkout already took is recorded whatever holds the booking. */
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
  const booking = getBooking(tx, report.bookingId);
  if (report.event && eventSeen(tx, report.event.id)) {
    return { ok: true, recorded: "already", booking };
  }
  if (paymentRecorded(tx, report.transactionId)) {
    markEventSeen(tx, report, now);
    return { ok: true, recorded: "already", booking };
  }
  if (!booking) return { ok: false, booking, reason: "No such booking" };
  const verdict = judgePayment(booking, {
    amount: report.amount,
    now,
    slotFree: !holdLapsed(booking, now) || slotStillFree(booking, now, bufferMinutes),
    refuseClaimed: options.refuseClaimed,
  });
  if (!verdict.ok) return { ok: false, booking, reason: verdict.reason };
  if (verdict.reinstates && !retakeOrderCouponUse(tx, booking)) {
    return { ok: false, booking, reason: DRAW_GONE };
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
  return { ok: true, recorded: "now", booking: paid, receipt: recorded.receipt };
}

function markEventSeen(tx: Tx, report: PaymentReport, now: number) {
  if (report.event) recordEventSeen(tx, report.event, report.bookingId, now);
}

function slotStillFree(booking: Booking, now: number, bufferMinutes: number): boolean {
  const busy = readBusyRanges(busyWindowFor(booking.recordingDate, bufferMinutes), now, booking.id);
  return !conflictsWith(booking, busy, bufferMinutes);
}
