import { and, eq, isNull, or } from "drizzle-orm";
import { type Booking, bookings } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import { CLAIM_CLEARED } from "#app/models/booking-claim.server";
import { extendHold, getBooking, isPayable } from "#app/models/booking.server";

/**
 * A booking's hosted checkout (Stripe): the plan (its expiry, which is also the hold's and
 * part of the idempotency key), the session once opened, and the CHECKOUT_OPEN claim while
 * the provider is being asked. All writes take the caller's IMMEDIATE transaction.
 */

/**
 * A plan made this recently, with no session stored yet, is another request's in-flight
 * attempt: a double submit joins it (same expiry, same idempotency key, same claim) instead
 * of opening a second session. Older plans are abandoned or failed and are never reused,
 * because the provider replays the saved response of a key, errors included.
 */
const JOIN_PLAN_MS = 30_000;

export type CheckoutPlan =
  | { kind: "create"; booking: Booking; until: number }
  | { kind: "not-payable"; booking: Booking | undefined }
  | { kind: "opened-elsewhere" };

/**
 * Decides the session's expiry, extends the hold to it and claims the booking for opening the
 * checkout, so concurrent requests (even in other processes) agree on one expiry and
 * therefore on one idempotency key, and nothing else acts on the booking meanwhile. The
 * session never outlives the hold: a slot cannot be paid for after it was released.
 */
export function planCheckout(
  tx: Tx,
  bookingId: number,
  now: number,
  sessionMs: number,
  staleSessionId: string | null,
): CheckoutPlan {
  const booking = getBooking(bookingId, tx);
  if (!booking || !isPayable(booking, now)) return { kind: "not-payable", booking };
  if (booking.checkoutSessionId !== null && booking.checkoutSessionId !== staleSessionId) {
    return { kind: "opened-elsewhere" };
  }
  const planned =
    booking.checkoutSessionId === null && booking.claim === "CHECKOUT_OPEN"
      ? booking.checkoutExpiresAt
      : null;
  const joinable = planned !== null && planned >= now + sessionMs - JOIN_PLAN_MS;
  const until = joinable ? planned : now + sessionMs;
  const held = extendHold(tx, bookingId, until, now);
  if (!held) return { kind: "not-payable", booking };
  tx.update(bookings)
    .set({
      checkoutSessionId: null,
      checkoutExpiresAt: until,
      // Joining keeps the first request's claim; a new plan takes the claim over.
      ...(joinable ? {} : { claim: "CHECKOUT_OPEN", claimedAt: now, claimedBy: null }),
    })
    .where(
      and(
        eq(bookings.id, bookingId),
        or(
          isNull(bookings.checkoutSessionId),
          staleSessionId === null ? undefined : eq(bookings.checkoutSessionId, staleSessionId),
        ),
      ),
    )
    .run();
  return { kind: "create", booking: held, until };
}

/** The session the provider opened for plan `until`; the plan's claim is released. */
export function storeCheckoutSession(tx: Tx, bookingId: number, until: number, sessionId: string) {
  tx.update(bookings)
    .set({ checkoutSessionId: sessionId })
    .where(and(eq(bookings.id, bookingId), eq(bookings.checkoutExpiresAt, until)))
    .run();
  releasePlanClaim(tx, bookingId, until);
}

/** The provider failed to open plan `until`: the next attempt plans afresh, with a new key. */
export function abandonCheckoutPlan(tx: Tx, bookingId: number, until: number) {
  releasePlanClaim(tx, bookingId, until);
  tx.update(bookings)
    .set({ checkoutExpiresAt: null })
    .where(
      and(
        eq(bookings.id, bookingId),
        isNull(bookings.checkoutSessionId),
        eq(bookings.checkoutExpiresAt, until),
      ),
    )
    .run();
}

function releasePlanClaim(tx: Tx, bookingId: number, until: number) {
  // Only this plan's claim: a later plan, or a cancellation, holds its own.
  tx.update(bookings)
    .set(CLAIM_CLEARED)
    .where(
      and(
        eq(bookings.id, bookingId),
        eq(bookings.claim, "CHECKOUT_OPEN"),
        eq(bookings.checkoutExpiresAt, until),
      ),
    )
    .run();
}

/**
 * Whether the site itself opened this Checkout Session (it is stored on a booking): the success
 * page and GET /api/payments/status ask the provider about no other id (docs/product.md
 * "Payments").
 */
export function isOwnCheckoutSession(sessionId: string): boolean {
  return (
    db
      .select({ id: bookings.id })
      .from(bookings)
      .where(eq(bookings.checkoutSessionId, sessionId))
      .get() !== undefined
  );
}
