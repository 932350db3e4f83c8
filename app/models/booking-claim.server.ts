import { and, asc, eq, isNotNull, isNull, lt } from "drizzle-orm";
import { type Booking, bookings } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import type { BookingClaim } from "#app/domain/booking-claim";

/**
 * Claims on bookings (domain/booking-claim): taken and released inside the caller's
 * IMMEDIATE transaction, so the check that allowed the claim and the claim itself are one
 * step for every process on the file.
 */

/** Proof of holding a claim: which one and since when (claimedAt is the token). */
export type ClaimToken = { bookingId: number; claim: BookingClaim; claimedAt: number };

/** Claims a booking nobody holds. Null when another action holds it. */
export function claimBooking(
  tx: Tx,
  bookingId: number,
  claim: BookingClaim,
  now: number,
  actorUserId: number | null,
): ClaimToken | null {
  const claimed = tx
    .update(bookings)
    .set({ claim, claimedAt: now, claimedBy: actorUserId })
    .where(and(eq(bookings.id, bookingId), isNull(bookings.claim)))
    .returning({ id: bookings.id })
    .get();
  return claimed ? { bookingId, claim, claimedAt: now } : null;
}

/** Whether `booking` (read inside the caller's transaction) is still held by `token`. */
export function holdsClaim(booking: Booking, token: ClaimToken): boolean {
  return booking.claim === token.claim && booking.claimedAt === token.claimedAt;
}

/** The token of the claim a booking carries, if any (the sweeper finishing it). */
export function claimTokenOf(booking: Booking): ClaimToken | null {
  if (booking.claim === null || booking.claimedAt === null) return null;
  return { bookingId: booking.id, claim: booking.claim, claimedAt: booking.claimedAt };
}

/** Releases `token`'s claim; does nothing when it is no longer held by it. */
export function releaseClaim(tx: Tx, token: ClaimToken): boolean {
  const released = tx.update(bookings).set(CLAIM_CLEARED).where(heldBy(token)).run();
  return released.changes === 1;
}

/** Turns `token`'s claim into `claim`, its lease unchanged; does nothing when no longer held. */
export function recastClaim(tx: Tx, token: ClaimToken, claim: BookingClaim): boolean {
  const recast = tx.update(bookings).set({ claim }).where(heldBy(token)).run();
  return recast.changes === 1;
}

/** The columns of no claim, for writes that record a claimed action and release it at once. */
export const CLAIM_CLEARED = { claim: null, claimedAt: null, claimedBy: null } as const;

/** Claims taken before `before` and still standing: crashed or abandoned, for the sweeper. */
export function listStaleClaims(before: number, limit = 50): Booking[] {
  return (
    db
      .select()
      .from(bookings)
      // `claim IS NOT NULL` lets SQLite use the partial index bookings_claimed_at.
      .where(and(isNotNull(bookings.claim), lt(bookings.claimedAt, before)))
      .orderBy(asc(bookings.claimedAt))
      .limit(limit)
      .all()
  );
}

function heldBy(token: ClaimToken) {
  return and(
    eq(bookings.id, token.bookingId),
    eq(bookings.claim, token.claim),
    eq(bookings.claimedAt, token.claimedAt),
  );
}
