import { type BookingClaim, claimProblem } from "#app/domain/booking-claim";
import type { BookingStatus } from "#app/domain/booking-status";
import { HOLD_EXPIRED_REASON, holdRanOut } from "#app/domain/holds";

// docs/product.md "Payment": workflows/apply-payment.server.ts reads the slot and takes the
// coupon use, then records what these rules decide.
export const ALREADY_PAID_MESSAGE = "This booking has already been paid.";
export const HOLD_EXPIRED_MESSAGE =
  "The hold on this time slot has run out, so it was released. Please book again.";
export const SLOT_TAKEN_SINCE = "Its hold ran out and its time slot has since been taken";
export const DRAW_GONE = "Its hold ran out and what it drew (retainer hours, a coupon use) is gone";

type PayableFields = {
  status: BookingStatus;
  totalCost: number;
  holdExpiresAt: number | null;
  claim: BookingClaim | null;
  cancellationReason: string | null;
};

/** Not while another action holds it; a checkout being opened may be joined. */
export function isPayable(booking: PayableFields, now: number): boolean {
  return (
    booking.status === "PENDING_PAYMENT" &&
    booking.totalCost > 0 &&
    !holdRanOut(booking, now) &&
    (booking.claim === null || booking.claim === "CHECKOUT_OPEN")
  );
}

export function notPayableMessage(booking: PayableFields, now: number): string {
  if (holdRanOut(booking, now)) return HOLD_EXPIRED_MESSAGE;
  if (booking.status === "CANCELLED") {
    return booking.cancellationReason === HOLD_EXPIRED_REASON
      ? HOLD_EXPIRED_MESSAGE
      : "This booking was cancelled.";
  }
  if (booking.totalCost === 0) return "This booking is free: there is nothing to pay.";
  const held = booking.status === "PENDING_PAYMENT" ? claimProblem(booking.claim) : null;
  return held ?? ALREADY_PAID_MESSAGE;
}

/** Its hold ran out, swept (cancelled for it) or not yet: a payment must find its slot free. */
export function holdLapsed(booking: PayableFields, now: number): boolean {
  return booking.status === "PENDING_PAYMENT"
    ? holdRanOut(booking, now)
    : booking.status === "CANCELLED" && booking.cancellationReason === HOLD_EXPIRED_REASON;
}

export type PaymentVerdict =
  | { ok: false; reason: string }
  /** `reinstates`: a swept booking comes back, and its order must take its coupon use again. */
  | { ok: true; reinstates: boolean; note: string };

/**
 * Never a different sum; a lapsed hold only onto a slot still free; a swept one only if it drew
 * no retainer hours. Money a hosted checkout took is recorded whatever holds the booking.
 */
export function judgePayment(
  booking: PayableFields & { retainerHoursDrawn: number },
  payment: { amount: number; now: number; slotFree: boolean; refuseClaimed: boolean },
): PaymentVerdict {
  if (payment.amount !== booking.totalCost) {
    return {
      ok: false,
      reason: `Amount ${payment.amount} does not match the booking total ${booking.totalCost}`,
    };
  }
  const lapsed = holdLapsed(booking, payment.now);
  if (booking.status !== "PENDING_PAYMENT" && !lapsed) {
    return { ok: false, reason: `Booking is ${booking.status}` };
  }
  if (lapsed && !payment.slotFree) return { ok: false, reason: SLOT_TAKEN_SINCE };
  const held = payment.refuseClaimed ? claimProblem(booking.claim) : null;
  if (held) return { ok: false, reason: held };
  const reinstates = booking.status === "CANCELLED";
  if (reinstates && booking.retainerHoursDrawn > 0) return { ok: false, reason: DRAW_GONE };
  return {
    ok: true,
    reinstates,
    note: reinstates ? "Paid after the hold ran out; the slot was still free" : "Paid by card",
  };
}

/**
 * Stripe answers a repeated key with the first request's checkout, and refuses it with other
 * parameters: the key names everything the plan charges (tests/invariants/FINDINGS.md, 11).
 */
export function checkoutKey(plan: {
  orderId: number;
  until: number;
  lines: readonly { bookingId: number; amount: number }[];
}): string {
  const lines = [...plan.lines]
    .sort((a, b) => a.bookingId - b.bookingId)
    .map((line) => `${line.bookingId}x${line.amount}`);
  return `checkout-order-${plan.orderId}-${plan.until}-${lines.join(".")}`;
}
