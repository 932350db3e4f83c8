import type { BookingStatus } from "#app/domain/booking-status";

/**
 * docs/product.md "Cancel, refund, reschedule". Pure: the dashboard shows these answers and the
 * server acts on the same ones.
 */
export const CANCELLABLE_STATUSES: readonly BookingStatus[] = [
  "PENDING_PAYMENT",
  "PENDING",
  "CONFIRMED",
];
export const RESCHEDULABLE_STATUSES: readonly BookingStatus[] = ["PENDING", "CONFIRMED"];

export const FREE_CHANGE_NOTICE_MS = 24 * 60 * 60_000;

type Session = { status: BookingStatus; startsAt: number };

export function canCancel(booking: Session, now: number): boolean {
  return CANCELLABLE_STATUSES.includes(booking.status) && booking.startsAt > now;
}

export function canReschedule(booking: Session, now: number): boolean {
  return (
    RESCHEDULABLE_STATUSES.includes(booking.status) &&
    booking.startsAt - now >= FREE_CHANGE_NOTICE_MS
  );
}

export type RefundQuote =
  | { kind: "unpaid"; paid: 0; fee: 0; refund: 0 }
  | { kind: "full"; paid: number; fee: 0; refund: number }
  | { kind: "late"; paid: number; fee: number; refund: number };

/** `paid` is net of refunds. The fee is rounded down, so rounding never costs the customer. */
export function refundQuote(
  booking: { startsAt: number; paid: number },
  now: number,
  feePercent: number,
): RefundQuote {
  const paid = Math.max(0, booking.paid);
  if (paid === 0) return { kind: "unpaid", paid: 0, fee: 0, refund: 0 };
  if (booking.startsAt - now >= FREE_CHANGE_NOTICE_MS) {
    return { kind: "full", paid, fee: 0, refund: paid };
  }
  const fee = Math.floor((paid * feePercent) / 100);
  return { kind: "late", paid, fee, refund: paid - fee };
}

/** Everything paid, whenever: when the studio cancels, the customer is not at fault. */
export function studioRefundQuote(paid: number): RefundQuote {
  const amount = Math.max(0, paid);
  return amount === 0
    ? { kind: "unpaid", paid: 0, fee: 0, refund: 0 }
    : { kind: "full", paid: amount, fee: 0, refund: amount };
}
