import { and, asc, eq, inArray, isNull, or } from "drizzle-orm";
import { type Booking, type BookingSeries, bookingSeries, bookings } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import { claimProblem } from "#app/domain/booking-claim";
import { CLAIM_CLEARED } from "#app/models/booking-claim.server";
import { extendHold, isPayable } from "#app/models/booking.server";

/**
 * A weekly series after booking (docs/product.md "Weekly series"): its row, its sessions, and
 * the hosted checkout that pays them together. The checkout's plan lives on the series row
 * (its expiry, part of the idempotency key) and every payable session is claimed
 * (CHECKOUT_OPEN, with the plan's expiry on the booking) while the provider is asked, so no
 * session is cancelled or moved while its line is being put on the checkout. All writes take
 * the caller's IMMEDIATE transaction.
 */
type Reader = Pick<Tx, "select">;

export function getSeries(id: number, reader: Reader = db): BookingSeries | undefined {
  return reader.select().from(bookingSeries).where(eq(bookingSeries.id, id)).get();
}

/** The customer's own series; another customer's is as missing as one that does not exist. */
export function getOwnSeries(id: number, userId: number): BookingSeries | undefined {
  return db
    .select()
    .from(bookingSeries)
    .where(and(eq(bookingSeries.id, id), eq(bookingSeries.userId, userId)))
    .get();
}

/** Every session of a series, cancelled ones too, in date order. */
export function listSeriesBookings(seriesId: number, reader: Reader = db): Booking[] {
  return reader
    .select()
    .from(bookings)
    .where(eq(bookings.seriesId, seriesId))
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .all();
}

/**
 * A session's series and every session of it, cancelled ones too, in date order: one read
 * (docs/product.md "Weekly series"). Only the booking's own customer's series: null for a
 * session booked alone.
 */
export function seriesOfBooking(
  booking: Pick<Booking, "seriesId" | "userId">,
): { repeat: BookingSeries["repeatEvery"]; sessions: Booking[] } | null {
  if (booking.seriesId === null) return null;
  const rows = db
    .select({ session: bookings, repeat: bookingSeries.repeatEvery })
    .from(bookings)
    .innerJoin(bookingSeries, eq(bookingSeries.id, bookings.seriesId))
    .where(
      and(
        eq(bookings.seriesId, booking.seriesId),
        eq(bookingSeries.userId, booking.userId),
        eq(bookings.userId, booking.userId),
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .all();
  const first = rows[0];
  return first ? { repeat: first.repeat, sessions: rows.map((row) => row.session) } : null;
}

/** The customer's series, keyed by id, for grouping My Sessions. */
export function listOwnSeries(userId: number): BookingSeries[] {
  return db.select().from(bookingSeries).where(eq(bookingSeries.userId, userId)).all();
}

/** The sessions a payment for the series pays now: the live, unpaid ones still held. */
export function payableSessions(sessions: readonly Booking[], now: number): Booking[] {
  return sessions.filter((session) => isPayable(session, now));
}

/** See models/checkout.server.ts: a plan this recent without a session is joined. */
const JOIN_PLAN_MS = 30_000;

export type SeriesCheckoutPlan =
  | { kind: "create"; series: BookingSeries; sessions: Booking[]; until: number }
  | { kind: "not-payable"; series: BookingSeries | undefined; message?: string }
  | { kind: "opened-elsewhere" };

/**
 * Decides the series checkout's expiry, extends every payable session's hold to it and claims
 * them, as planCheckout does for one booking, so a double submit agrees on one idempotency key.
 */
export function planSeriesCheckout(
  tx: Tx,
  seriesId: number,
  now: number,
  sessionMs: number,
  staleSessionId: string | null,
): SeriesCheckoutPlan {
  const series = getSeries(seriesId, tx);
  if (!series) return { kind: "not-payable", series };
  const payable = payableSessions(listSeriesBookings(seriesId, tx), now);
  if (payable.length === 0) return { kind: "not-payable", series };
  if (series.checkoutSessionId !== null && series.checkoutSessionId !== staleSessionId) {
    return { kind: "opened-elsewhere" };
  }
  const planned = series.checkoutSessionId === null ? series.checkoutExpiresAt : null;
  const joinable = planned !== null && planned >= now + sessionMs - JOIN_PLAN_MS;
  const until = joinable ? planned : now + sessionMs;
  const held: Booking[] = [];
  for (const session of payable) {
    // A session claimed by anything but this plan is being acted on: not now.
    if (session.claim !== null && !(joinable && session.checkoutExpiresAt === until)) {
      return { kind: "not-payable", series, message: claimProblem(session.claim) ?? undefined };
    }
    const extended = extendHold(tx, session.id, until, now);
    if (!extended) return { kind: "not-payable", series };
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
  tx.update(bookingSeries)
    .set({ checkoutSessionId: null, checkoutExpiresAt: until })
    .where(
      and(
        eq(bookingSeries.id, seriesId),
        or(
          isNull(bookingSeries.checkoutSessionId),
          staleSessionId === null ? undefined : eq(bookingSeries.checkoutSessionId, staleSessionId),
        ),
      ),
    )
    .run();
  return { kind: "create", series, sessions: held, until };
}

/** The session the provider opened for plan `until`; the plan's claims are released. */
export function storeSeriesCheckoutSession(
  tx: Tx,
  seriesId: number,
  until: number,
  sessionId: string,
) {
  tx.update(bookingSeries)
    .set({ checkoutSessionId: sessionId })
    .where(and(eq(bookingSeries.id, seriesId), eq(bookingSeries.checkoutExpiresAt, until)))
    .run();
  releaseSeriesPlanClaims(tx, seriesId, until);
}

/** The provider failed to open plan `until`: the next attempt plans afresh, with a new key. */
export function abandonSeriesCheckoutPlan(tx: Tx, seriesId: number, until: number) {
  releaseSeriesPlanClaims(tx, seriesId, until);
  tx.update(bookingSeries)
    .set({ checkoutExpiresAt: null })
    .where(
      and(
        eq(bookingSeries.id, seriesId),
        isNull(bookingSeries.checkoutSessionId),
        eq(bookingSeries.checkoutExpiresAt, until),
      ),
    )
    .run();
}

function releaseSeriesPlanClaims(tx: Tx, seriesId: number, until: number) {
  // Only this plan's claims: a cancellation holds its own.
  tx.update(bookings)
    .set({ ...CLAIM_CLEARED, checkoutExpiresAt: null })
    .where(
      and(
        eq(bookings.seriesId, seriesId),
        eq(bookings.claim, "CHECKOUT_OPEN"),
        eq(bookings.checkoutExpiresAt, until),
      ),
    )
    .run();
}

/** Whether the site opened this Checkout Session for a series (see isOwnCheckoutSession). */
export function isOwnSeriesCheckoutSession(sessionId: string): boolean {
  return (
    db
      .select({ id: bookingSeries.id })
      .from(bookingSeries)
      .where(eq(bookingSeries.checkoutSessionId, sessionId))
      .get() !== undefined
  );
}

/**
 * The hosted checkout a series session may still be paid through: cancelling the session
 * closes it first, as it does a single booking's (docs/product.md "Weekly series").
 */
export function seriesCheckoutOf(booking: Booking, reader: Reader = db): string | null {
  if (booking.seriesId === null || booking.status !== "PENDING_PAYMENT") return null;
  return getSeries(booking.seriesId, reader)?.checkoutSessionId ?? null;
}
