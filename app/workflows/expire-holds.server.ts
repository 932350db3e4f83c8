import { type Tx, writeTransaction } from "#app/db.server";
import { HOLD_EXPIRED_REASON } from "#app/domain/holds";
import {
  cancelExpiredHolds,
  hasExpiredHold,
  recordBookingHistory,
  releaseCancelledSession,
} from "#app/models/booking.server";

/**
 * docs/product.md "Availability and holds": reads show an expired hold as swept already, so
 * only the sweep and a booking (first, in its transaction) write it, giving back what it took.
 */
export function expireHolds(tx: Tx, now: number): number {
  const expired = cancelExpiredHolds(tx, now);
  for (const booking of expired) {
    releaseCancelledSession(tx, booking);
    recordBookingHistory(tx, {
      bookingId: booking.id,
      fromStatus: "PENDING_PAYMENT",
      toStatus: "CANCELLED",
      note: HOLD_EXPIRED_REASON,
      createdAt: now,
    });
  }
  return expired.length;
}

/** Almost always a read that finds nothing due: no write lock for nothing. */
export function sweepExpiredHolds(now: number): number {
  if (!hasExpiredHold(now)) return 0;
  return writeTransaction((tx) => expireHolds(tx, now));
}
