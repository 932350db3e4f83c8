import { and, asc, eq, inArray, isNotNull, isNull, or } from "drizzle-orm";
import { type Booking, bookings, type Order, orders } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import { claimProblem } from "#app/domain/booking-claim";
import type { SeriesRepeat } from "#app/domain/series-repeat";
import { CLAIM_CLEARED } from "#app/models/booking-claim.server";
import { isPayable } from "#app/domain/payments";
import { extendHold } from "#app/models/booking.server";

/**
 * Orders (docs/product.md "Orders"): everything a customer booked in one go, one session or a
 * weekly series. The order row holds what is one per purchase: the coupon use it took (taken and
 * given back in coupon.server.ts) and the hosted checkout that pays its unpaid sessions together,
 * kept here. The checkout's plan
 * (its expiry, also part of the idempotency key) is on the order row; every session on the plan
 * is claimed (CHECKOUT_OPEN, with the plan's expiry on the booking) while the provider is asked,
 * so no session is cancelled, moved or paid another way meanwhile. All writes take the caller's
 * IMMEDIATE transaction.
 */
type Reader = Pick<Tx, "select">;

export function insertOrder(
  tx: Tx,
  values: {
    userId: number;
    repeatEvery: SeriesRepeat | null;
    occurrences: number;
    couponId: number | null;
    createdAt: number;
  },
): number {
  return tx.insert(orders).values(values).returning({ id: orders.id }).get().id;
}

export function getOrder(reader: Reader, id: number): Order | undefined {
  return reader.select().from(orders).where(eq(orders.id, id)).get();
}

/** The customer's own weekly series; another customer's, or a single booking's order, is missing. */
export function getOwnSeries(id: number, userId: number): Series | undefined {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.userId, userId), isNotNull(orders.repeatEvery)))
    .get() as Series | undefined;
}

/** An order booked as a weekly series. */
export type Series = Order & { repeatEvery: SeriesRepeat };

/** Every session of an order, cancelled ones too, in date order. */
export function listOrderSessions(reader: Reader, orderId: number): Booking[] {
  return reader
    .select()
    .from(bookings)
    .where(eq(bookings.orderId, orderId))
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .all();
}

/**
 * A session's weekly series and every session of it, cancelled ones too, in date order: one
 * read. Only the booking's own customer's series: null for a session booked alone.
 */
export function seriesOfBooking(
  booking: Pick<Booking, "orderId" | "userId">,
): { id: number; repeat: SeriesRepeat; sessions: Booking[] } | null {
  if (booking.orderId === null) return null;
  const rows = db
    .select({ session: bookings, repeat: orders.repeatEvery })
    .from(bookings)
    .innerJoin(orders, eq(orders.id, bookings.orderId))
    .where(
      and(
        eq(bookings.orderId, booking.orderId),
        isNotNull(orders.repeatEvery),
        eq(orders.userId, booking.userId),
        eq(bookings.userId, booking.userId),
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .all();
  const first = rows[0];
  if (!first?.repeat) return null;
  return { id: booking.orderId, repeat: first.repeat, sessions: rows.map((row) => row.session) };
}

/** The customer's weekly series (orders of more than one session), for grouping My Sessions. */
export function listOwnSeries(userId: number): Series[] {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), isNotNull(orders.repeatEvery)))
    .all() as Series[];
}

/** The sessions a payment for the order pays now: the live, unpaid ones still held. */
export function payableSessions(sessions: readonly Booking[], now: number): Booking[] {
  return sessions.filter((session) => isPayable(session, now));
}

/**
 * A plan made this recently, with no session stored yet, is another request's in-flight
 * attempt: a double submit joins it (same expiry, same idempotency key, same claims) instead
 * of opening a second session. Older plans are abandoned or failed and are never reused,
 * because the provider replays the saved response of a key, errors included.
 */
const JOIN_PLAN_MS = 30_000;

export type CheckoutPlan =
  | { kind: "create"; order: Order; sessions: Booking[]; until: number }
  | { kind: "not-payable"; order: Order | undefined; message?: string }
  | { kind: "opened-elsewhere" };

/**
 * Decides the checkout's expiry, extends every payable session's hold to it and claims them
 * for opening the checkout, so concurrent requests (even in other processes) agree on one
 * expiry and therefore on one idempotency key, and nothing else acts on the sessions meanwhile.
 * The checkout never outlives the holds: a slot cannot be paid for after it was released.
 */
export function planCheckout(
  tx: Tx,
  orderId: number,
  now: number,
  sessionMs: number,
  staleSessionId: string | null,
): CheckoutPlan {
  const order = getOrder(tx, orderId);
  if (!order) return { kind: "not-payable", order };
  const payable = payableSessions(listOrderSessions(tx, orderId), now);
  if (payable.length === 0) return { kind: "not-payable", order };
  if (order.checkoutSessionId !== null && order.checkoutSessionId !== staleSessionId) {
    return { kind: "opened-elsewhere" };
  }
  const planned = order.checkoutSessionId === null ? order.checkoutExpiresAt : null;
  const joinable = planned !== null && planned >= now + sessionMs - JOIN_PLAN_MS;
  const until = joinable ? planned : now + sessionMs;
  const held: Booking[] = [];
  for (const session of payable) {
    // A session claimed by anything but this plan is being acted on: not now.
    if (session.claim !== null && !(joinable && session.checkoutExpiresAt === until)) {
      return { kind: "not-payable", order, message: claimProblem(session.claim) ?? undefined };
    }
    const extended = extendHold(tx, session.id, until, now);
    if (!extended) return { kind: "not-payable", order };
    held.push(extended);
  }
  if (!joinable) {
    tx.update(bookings)
      .set({ claim: "CHECKOUT_OPEN", claimedAt: now, claimedBy: null, checkoutExpiresAt: until })
      .where(
        inArray(
          bookings.id,
          held.map((session) => session.id),
        ),
      )
      .run();
  }
  tx.update(orders)
    .set({ checkoutSessionId: null, checkoutExpiresAt: until })
    .where(
      and(
        eq(orders.id, orderId),
        or(
          isNull(orders.checkoutSessionId),
          staleSessionId === null ? undefined : eq(orders.checkoutSessionId, staleSessionId),
        ),
      ),
    )
    .run();
  return { kind: "create", order, sessions: held, until };
}

/**
 * The session the provider opened for plan `until`; the plan's claims are released. False when
 * the plan is no longer the order's (the sweeper abandoned it as stale): the session is not
 * stored, and the caller closes it.
 */
export function storeCheckoutSession(
  tx: Tx,
  orderId: number,
  until: number,
  sessionId: string,
): boolean {
  // A double submit that joined the plan stores the very same session a second time.
  const stored = tx
    .update(orders)
    .set({ checkoutSessionId: sessionId })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.checkoutExpiresAt, until),
        or(isNull(orders.checkoutSessionId), eq(orders.checkoutSessionId, sessionId)),
      ),
    )
    .run();
  releasePlanClaims(tx, orderId, until);
  return stored.changes === 1;
}

/** The provider failed to open plan `until`: the next attempt plans afresh, with a new key. */
export function abandonCheckoutPlan(tx: Tx, orderId: number, until: number) {
  releasePlanClaims(tx, orderId, until);
  tx.update(orders)
    .set({ checkoutExpiresAt: null })
    .where(
      and(
        eq(orders.id, orderId),
        isNull(orders.checkoutSessionId),
        eq(orders.checkoutExpiresAt, until),
      ),
    )
    .run();
}

/** The order's checkout was closed (paid another way, or cancelled): it is forgotten. */
export function forgetCheckout(tx: Tx, orderId: number, sessionId: string) {
  tx.update(orders)
    .set({ checkoutSessionId: null, checkoutExpiresAt: null })
    .where(and(eq(orders.id, orderId), eq(orders.checkoutSessionId, sessionId)))
    .run();
}

function releasePlanClaims(tx: Tx, orderId: number, until: number) {
  // Only this plan's claims: a cancellation holds its own.
  tx.update(bookings)
    .set({ ...CLAIM_CLEARED, checkoutExpiresAt: null })
    .where(
      and(
        eq(bookings.orderId, orderId),
        eq(bookings.claim, "CHECKOUT_OPEN"),
        eq(bookings.checkoutExpiresAt, until),
      ),
    )
    .run();
}

/**
 * Whether the site itself opened this Checkout Session (it is stored on an order): the success
 * page and GET /api/payments/status ask the provider about no other id (docs/product.md
 * "Payments").
 */
export function isOwnCheckoutSession(sessionId: string): boolean {
  return (
    db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.checkoutSessionId, sessionId))
      .get() !== undefined
  );
}

/**
 * The hosted checkout an unpaid session may still be paid through (its order's): cancelling
 * the session or taking its payment another way closes it first.
 */
export function openCheckoutOf(reader: Reader, booking: Booking): string | null {
  if (booking.orderId === null || booking.status !== "PENDING_PAYMENT") return null;
  return getOrder(reader, booking.orderId)?.checkoutSessionId ?? null;
}
