import type { BookingClaim } from "#app/domain/booking-claim";
import type { BookingStatus } from "#app/domain/booking-status";

// docs/product.md "Availability and holds": only the sweeper writes an expiry; a read shows an
// expired hold as the sweep leaves it (SQL twin: models/holds.server.ts), so a GET writes nothing.
export const HOLD_EXPIRED_REASON = "Payment not received in time";

type Hold = { status: BookingStatus; holdExpiresAt: number | null };

/** Claimed or not: a late payment may still find its slot free (domain/payments.ts). */
export function holdRanOut(booking: Hold, now: number): boolean {
  return booking.status === "PENDING_PAYMENT" && (booking.holdExpiresAt ?? 0) <= now;
}

/** A claimed booking keeps its slot until its claim is recorded or released, even past its hold. */
export function holdExpired(booking: Hold & { claim: BookingClaim | null }, now: number): boolean {
  return holdRanOut(booking, now) && booking.claim === null;
}

export function keepsSlot(booking: Hold & { claim: BookingClaim | null }, now: number): boolean {
  return booking.status !== "CANCELLED" && !holdExpired(booking, now);
}

type Sweepable = Hold & {
  claim: BookingClaim | null;
  cancellationReason: string | null;
  cancelledAt: number | null;
};

/** An expired hold reads as the sweep leaves its row. */
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
