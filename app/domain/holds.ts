import type { BookingClaim } from "#app/domain/booking-claim";
import type { BookingStatus } from "#app/domain/booking-status";

/**
 * An unpaid booking's hold (docs/product.md "Availability and holds"): the one predicate every
 * read uses, mirrored in SQL by models/booking.server.ts. Only the sweeper writes the expiry;
 * a read shows an expired hold as the sweep will leave it, so a GET writes nothing.
 */
export const HOLD_EXPIRED_REASON = "Payment not received in time";

type Hold = { status: BookingStatus; holdExpiresAt: number | null };

/** Unpaid and past its hold's time: its slot can no longer be paid for as held. */
export function holdRanOut(booking: Hold, now: number): boolean {
  return booking.status === "PENDING_PAYMENT" && (booking.holdExpiresAt ?? 0) <= now;
}

/**
 * Ran out and no workflow holds it: what the sweep cancels. A claimed booking keeps its slot
 * until its claim is recorded or released, even past its hold.
 */
export function holdExpired(booking: Hold & { claim: BookingClaim | null }, now: number): boolean {
  return holdRanOut(booking, now) && booking.claim === null;
}

/** Whether a booking keeps its time range from others: not cancelled, not an expired hold. */
export function keepsSlot(booking: Hold & { claim: BookingClaim | null }, now: number): boolean {
  return booking.status !== "CANCELLED" && !holdExpired(booking, now);
}

type Sweepable = Hold & {
  claim: BookingClaim | null;
  cancellationReason: string | null;
  cancelledAt: number | null;
};

/** The booking as it reads at `now`: an expired hold reads as the sweep leaves its row. */
export function asSweptAt<T extends Sweepable>(booking: T, now: number): T {
  if (!holdExpired(booking, now)) return booking;
  return {
    ...booking,
    status: "CANCELLED",
    cancellationReason: HOLD_EXPIRED_REASON,
    cancelledAt: now,
    holdExpiresAt: null,
  };
}
