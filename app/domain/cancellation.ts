import type { BookingStatus } from "#app/domain/booking-status";

/**
 * Cancelling, refunds and rescheduling (docs/product.md "Cancel, refund, reschedule"). Pure:
 * the dashboard shows these answers and the server acts on the same ones.
 */
export const CANCELLABLE_STATUSES: readonly BookingStatus[] = [
  "PENDING_PAYMENT",
  "PENDING",
  "CONFIRMED",
];
export const RESCHEDULABLE_STATUSES: readonly BookingStatus[] = ["PENDING", "CONFIRMED"];

/** Cancelling or moving a session this long before its start is free of charge. */
export const FREE_CHANGE_NOTICE_MS = 24 * 60 * 60_000;

type Session = { status: BookingStatus; startsAt: number };

/** A customer may cancel an unpaid, paid or confirmed session until it starts. */
export function canCancel(booking: Session, now: number): boolean {
  return CANCELLABLE_STATUSES.includes(booking.status) && booking.startsAt > now;
}

/** A customer may move a paid or confirmed session at least 24 hours before it starts. */
export function canReschedule(booking: Session, now: number): boolean {
  return (
    RESCHEDULABLE_STATUSES.includes(booking.status) &&
    booking.startsAt - now >= FREE_CHANGE_NOTICE_MS
  );
}

export type RefundQuote =
  /** Nothing was paid: cancelled at no charge. */
  | { kind: "unpaid"; paid: 0; fee: 0; refund: 0 }
  /** At least 24 hours ahead: everything paid comes back. */
  | { kind: "full"; paid: number; fee: 0; refund: number }
  /** Later: the cancellation fee is kept and the rest refunded. */
  | { kind: "late"; paid: number; fee: number; refund: number };

/**
 * What cancelling now gives back. `paid` is what the customer has paid for the booking, net
 * of refunds, in whole dollars. The fee is a share of it rounded down, so rounding never costs
 * the customer a dollar.
 */
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

/**
 * What the studio cancelling gives back: everything paid, whenever it happens. The fee only
 * applies when the customer cancels late; when the studio cancels, the customer is not at fault.
 */
export function studioRefundQuote(paid: number): RefundQuote {
  const amount = Math.max(0, paid);
  return amount === 0
    ? { kind: "unpaid", paid: 0, fee: 0, refund: 0 }
    : { kind: "full", paid: amount, fee: 0, refund: amount };
}
