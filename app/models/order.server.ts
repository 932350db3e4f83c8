import { and, asc, eq, gt, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { type Booking, bookings, type Order, orders } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import { claimProblem } from "#app/domain/booking-claim";
import type { SeriesRepeat } from "#app/domain/series-repeat";
import { CLAIM_CLEARED } from "#app/models/booking-claim.server";
import { isPayable } from "#app/domain/payments";
import { extendHold } from "#app/models/booking.server";

/** docs/product.md "Orders". Every session on a checkout plan is claimed while the provider is asked, so nothing else acts on it. */
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

/** Another customer's series, or a single booking's order, is missing. */
export function getOwnSeries(id: number, userId: number): Series | undefined {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.userId, userId), isNotNull(orders.repeatEvery)))
    .get() as Series | undefined;
}

export type Series = Order & { repeatEvery: SeriesRepeat };

export function listOrderSessions(reader: Reader, orderId: number): Booking[] {
  return reader
    .select()
    .from(bookings)
    .where(eq(bookings.orderId, orderId))
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .all();
}

/** Only the booking's own customer's series: null for a session booked alone. */
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

const ownSeries = db
  .select()
  .from(orders)
  .where(and(eq(orders.userId, sql.placeholder("userId")), isNotNull(orders.repeatEvery)))
  .prepare();

export function listOwnSeries(userId: number): Series[] {
  return ownSeries.all({ userId }) as Series[];
}

export function payableSessions(sessions: readonly Booking[], now: number): Booking[] {
  return sessions.filter((session) => isPayable(session, now));
}

/** A recent plan with no session yet is in flight: a double submit joins it. Older ones are never reused (the provider replays a key's saved errors). */
const JOIN_PLAN_MS = 30_000;

export type CheckoutPlan =
  | { kind: "create"; order: Order; sessions: Booking[]; until: number }
  | { kind: "not-payable"; order: Order | undefined; message?: string }
  | { kind: "opened-elsewhere" }
  /** An earlier plan's call went unanswered: what it may have opened is closed first. */
  | { kind: "unanswered"; until: number };

/** Concurrent requests agree on one expiry, so one idempotency key. The checkout never outlives the holds. */
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
  const inFlight = planned !== null && planInFlight(tx, orderId, planned);
  if (planned !== null && !inFlight && planned > now) return { kind: "unanswered", until: planned };
  const joinable = inFlight && planned >= now + sessionMs - JOIN_PLAN_MS;
  const until = joinable ? planned : now + sessionMs;
  const held: Booking[] = [];
  for (const session of payable) {
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

/** False when the plan was abandoned meanwhile: the caller closes the session. */
export function storeCheckoutSession(
  tx: Tx,
  orderId: number,
  until: number,
  sessionId: string,
): boolean {
  // A double submit that joined the plan stores the same session a second time.
  const stored = tx
    .update(orders)
    .set({ checkoutSessionId: sessionId })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.checkoutExpiresAt, until),
        planInFlight(tx, orderId, until)
          ? or(isNull(orders.checkoutSessionId), eq(orders.checkoutSessionId, sessionId))
          : eq(orders.checkoutSessionId, sessionId),
      ),
    )
    .run();
  releasePlanClaims(tx, orderId, until);
  return stored.changes === 1;
}

/**
 * Its call failed or was cut off, so the provider may have opened a checkout we never learned
 * of: the order keeps the plan's expiry, with no session, until that is closed.
 */
export function abandonCheckoutPlan(tx: Tx, orderId: number, until: number) {
  releasePlanClaims(tx, orderId, until);
}

/** Orders whose abandoned plan may still have a checkout open at the provider. */
export function listUnansweredPlans(
  reader: Reader,
  now: number,
): { orderId: number; until: number }[] {
  return reader
    .select({ orderId: orders.id, until: orders.checkoutExpiresAt })
    .from(orders)
    .where(and(isNull(orders.checkoutSessionId), gt(orders.checkoutExpiresAt, now)))
    .all()
    .flatMap(({ orderId, until }) =>
      until !== null && !planInFlight(reader, orderId, until) ? [{ orderId, until }] : [],
    );
}

/** What the plan may have opened is closed: the order plans afresh next time. */
export function forgetUnansweredPlan(tx: Tx, orderId: number, until: number) {
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

/** Its sessions are still claimed for it: a request is asking the provider now. */
function planInFlight(reader: Reader, orderId: number, until: number): boolean {
  return (
    reader.select({ id: bookings.id }).from(bookings).where(planClaims(orderId, until)).get() !==
    undefined
  );
}

/** Only this plan's claims: a cancellation holds its own. */
function planClaims(orderId: number, until: number) {
  return and(
    eq(bookings.orderId, orderId),
    eq(bookings.claim, "CHECKOUT_OPEN"),
    eq(bookings.checkoutExpiresAt, until),
  );
}

export function forgetCheckout(tx: Tx, orderId: number, sessionId: string) {
  tx.update(orders)
    .set({ checkoutSessionId: null, checkoutExpiresAt: null })
    .where(and(eq(orders.id, orderId), eq(orders.checkoutSessionId, sessionId)))
    .run();
}

function releasePlanClaims(tx: Tx, orderId: number, until: number) {
  tx.update(bookings)
    .set({ ...CLAIM_CLEARED, checkoutExpiresAt: null })
    .where(planClaims(orderId, until))
    .run();
}

/** docs/product.md "Payment": the status pages ask the provider about no other id. */
export function isOwnCheckoutSession(sessionId: string): boolean {
  return (
    db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.checkoutSessionId, sessionId))
      .get() !== undefined
  );
}

/** Cancelling the session or paying it another way closes it first. */
export function openCheckoutOf(reader: Reader, booking: Booking): string | null {
  if (booking.orderId === null || booking.status !== "PENDING_PAYMENT") return null;
  return getOrder(reader, booking.orderId)?.checkoutSessionId ?? null;
}
