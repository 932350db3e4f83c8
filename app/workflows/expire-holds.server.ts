import { type Tx, writeTransaction } from "#app/db.server";
import { HOLD_EXPIRED_REASON } from "#app/domain/holds";
import {
  cancelExpiredHolds,
  hasExpiredHold,
  recordBookingHistory,
  releaseCancelledSession,
} from "#app/models/booking.server";

/**
 * The expiry of holds (docs/product.md "Availability and holds"): every expired hold is
 * cancelled and gives back what it took, its order's coupon use and any retainer hours it drew.
 * Reads already show such a hold as swept (domain/holds.ts), so no GET writes it; the
 * background sweep does, and a booking does first in its own transaction, so the use and hours
 * it frees are free for that booking exactly as every read counted them.
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

/** The background sweep's turn: almost always a read that finds nothing due. */
export function sweepExpiredHolds(now: number): number {
  if (!hasExpiredHold(now)) return 0;
  return writeTransaction((tx) => expireHolds(tx, now));
}
