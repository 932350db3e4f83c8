import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNull,
  lt,
  lte,
  ne,
  type SQL,
  sql,
} from "drizzle-orm";
import {
  type Booking,
  blockedTimes,
  bookingHistory,
  bookingServices,
  bookings,
  orders,
  services,
  waitlistEntries,
} from "#db/schema";
import { db } from "#app/db.server";
import {
  BOOKING_LIMITS,
  type BusyRange,
  busyWindowFor,
  startProblem,
  startTimeOptions,
} from "#app/domain/availability";
import type { OpenHold } from "#app/domain/booking-limits";
import { PAID_STATUSES } from "#app/domain/booking-status";
import { asSweptAt, HOLD_EXPIRED_REASON } from "#app/domain/holds";
import { type RetainerBalance, retainerHoursToDraw } from "#app/domain/retainer";
import { studioDateOf } from "#app/domain/studio-time";
import { releaseOrderCouponUse } from "#app/models/coupon.server";
import {
  type At,
  bookingsAs,
  holdExpiredWhere,
  holdLiveWhere,
  keepsSlotWhere,
} from "#app/models/holds.server";

/** Writes take the caller's transaction: workflows run each read-check-write in one IMMEDIATE transaction with no await inside. */
export type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];
type Reader = Pick<typeof db, "select">;
export type NewBooking = typeof bookings.$inferInsert;

const LONGEST_SESSION_MS = BOOKING_LIMITS.maxHours * 60 * 60_000;

// Prepared once: query building and prepare were most of an availability answer.
const liveBookingRanges = db
  .select({ startsAt: bookings.startsAt, endsAt: bookings.endsAt })
  .from(bookings)
  .where(
    and(
      lt(bookings.startsAt, sql.placeholder("to")),
      gt(bookings.endsAt, sql.placeholder("from")),
      // Implied by maxHours, but bounds the starts_at index range to the window.
      gt(bookings.startsAt, sql.placeholder("earliestStart")),
      keepsSlotWhere(sql.placeholder("now")),
      // 0 excludes nothing: AUTOINCREMENT ids start at 1.
      ne(bookings.id, sql.placeholder("excludeId")),
    ),
  )
  .prepare();
const blockedRanges = db
  .select({ startsAt: blockedTimes.startsAt, endsAt: blockedTimes.endsAt })
  .from(blockedTimes)
  .where(
    and(
      lt(blockedTimes.startsAt, sql.placeholder("to")),
      gt(blockedTimes.endsAt, sql.placeholder("from")),
    ),
  )
  .prepare();

// docs/product.md "Waitlist": an offer's range is busy for everyone else until it runs out.
const offeredRanges = db
  .select({ startsAt: waitlistEntries.startsAt, endsAt: waitlistEntries.endsAt })
  .from(waitlistEntries)
  .where(
    and(
      eq(waitlistEntries.status, "OFFERED"),
      gt(waitlistEntries.offerExpiresAt, sql.placeholder("now")),
      lt(waitlistEntries.startsAt, sql.placeholder("to")),
      gt(waitlistEntries.endsAt, sql.placeholder("from")),
      ne(waitlistEntries.id, sql.placeholder("excludeOfferId")),
    ),
  )
  .prepare();

const nextHoldEnd = db
  .select({ at: sql<number | null>`min(${bookings.holdExpiresAt})` })
  .from(bookings)
  .where(
    and(eq(bookings.status, "PENDING_PAYMENT"), gt(bookings.holdExpiresAt, sql.placeholder("now"))),
  )
  .prepare();
const nextOfferEnd = db
  .select({ at: sql<number | null>`min(${waitlistEntries.offerExpiresAt})` })
  .from(waitlistEntries)
  .where(
    and(
      eq(waitlistEntries.status, "OFFERED"),
      gt(waitlistEntries.offerExpiresAt, sql.placeholder("now")),
    ),
  )
  .prepare();

/** The next instant a busy range ends with no write: a hold or a waitlist offer running out. */
export function busyRangesChangeAt(now: number): number {
  const hold = nextHoldEnd.get({ now })?.at ?? Number.POSITIVE_INFINITY;
  const offer = nextOfferEnd.get({ now })?.at ?? Number.POSITIVE_INFINITY;
  return Math.min(hold, offer);
}

/** A claim passes its own offer, which does not stand in its way. */
export function readBusyRanges(
  window: { from: number; to: number },
  now: number,
  excludeBookingId?: number,
  excludeOfferId?: number,
): BusyRange[] {
  const liveBookings = liveBookingRanges.all({
    from: window.from,
    to: window.to,
    earliestStart: window.from - LONGEST_SESSION_MS,
    now,
    excludeId: excludeBookingId ?? 0,
  });
  const blocked = blockedRanges.all({ from: window.from, to: window.to });
  const offers = offeredRanges.all({
    from: window.from,
    to: window.to,
    now,
    excludeOfferId: excludeOfferId ?? 0,
  });
  return [
    ...liveBookings.map((range) => ({ ...range, kind: "booking" as const })),
    ...offers.map((range) => ({ ...range, kind: "booking" as const })),
    ...blocked.map((range) => ({ ...range, kind: "blocked" as const })),
  ];
}

/** A move passes the booking's id, a waitlist claim its offer's: their own slot is not in the way. */
export function getAvailability(
  date: string,
  hours: number,
  now: number,
  bufferMinutes: number,
  excludeBookingId?: number,
  excludeOfferId?: number,
) {
  const busy = readBusyRanges(
    busyWindowFor(date, bufferMinutes),
    now,
    excludeBookingId,
    excludeOfferId,
  );
  return startTimeOptions({ date, hours, busy, now, bufferMinutes });
}

export function hasConflict(
  slot: { date: string; time: string; hours: number },
  now: number,
  bufferMinutes: number,
): boolean {
  const busy = readBusyRanges(busyWindowFor(slot.date, bufferMinutes), now);
  return startProblem({ ...slot, busy, now, bufferMinutes }) === "taken";
}

const drawer = bookingsAs("drawer");

/** Less the hours its expired holds drew: every read counts them as given back already. */
export function retainerHoursUsedAt(now: At): SQL<number> {
  const expiredDraws = db
    .select({ hours: sql`coalesce(sum(${drawer.retainerHoursDrawn}), 0)` })
    .from(drawer)
    .where(and(eq(drawer.retainerBookingId, bookings.id), holdExpiredWhere(now, drawer)));
  return sql<number>`(case when ${bookings.isRetainer} then ${bookings.retainerHoursUsed} - (${expiredDraws}) else ${bookings.retainerHoursUsed} end)`;
}

/** The caller shows the row through `asSweptAt`. */
export function bookingColumnsAt(now: At) {
  return { ...getTableColumns(bookings), retainerHoursUsed: retainerHoursUsedAt(now) };
}

const activeRetainer = db
  .select({
    id: bookings.id,
    retainerStartDate: bookings.retainerStartDate,
    retainerEndDate: bookings.retainerEndDate,
    retainerTotalHours: bookings.retainerTotalHours,
    retainerHoursUsed: retainerHoursUsedAt(sql.placeholder("now")),
  })
  .from(bookings)
  .where(
    and(
      eq(bookings.userId, sql.placeholder("userId")),
      eq(bookings.isRetainer, true),
      inArray(bookings.status, [...PAID_STATUSES]),
      sql`${bookings.retainerEndDate} > ${sql.placeholder("today")}`,
      sql`${retainerHoursUsedAt(sql.placeholder("now"))} < ${bookings.retainerTotalHours}`,
      isNull(bookings.claim),
    ),
  )
  .orderBy(asc(bookings.retainerEndDate))
  .prepare();

/** A retainer under a claim (being cancelled) is not offered: its hours cannot be drawn. */
export function getActiveRetainer(userId: number, now: number): RetainerBalance | null {
  const row = activeRetainer.get({ userId, now, today: studioDateOf(now) });
  if (!row?.retainerStartDate || !row.retainerEndDate) return null;
  return {
    bookingId: row.id,
    startDate: row.retainerStartDate,
    endDate: row.retainerEndDate,
    totalHours: row.retainerTotalHours,
    usedHours: row.retainerHoursUsed,
  };
}

export type RetainerDraw = { retainerBookingId: number | null; drawn: number };

/** Runs inside the booking's transaction, so the read and the increment see the same balance. */
export function drawRetainerHours(
  tx: Tx,
  draw: { userId: number; date: string; hours: number },
  now: number,
): RetainerDraw {
  const retainer = getActiveRetainer(draw.userId, now);
  const drawn = retainerHoursToDraw(retainer, draw.date, draw.hours);
  if (!retainer || drawn === 0) return { retainerBookingId: null, drawn: 0 };
  tx.update(bookings)
    .set({ retainerHoursUsed: sql`${bookings.retainerHoursUsed} + ${drawn}` })
    .where(eq(bookings.id, retainer.bookingId))
    .run();
  return { retainerBookingId: retainer.bookingId, drawn };
}

const dueHold = db
  .select({ id: bookings.id })
  .from(bookings)
  .where(holdExpiredWhere(sql.placeholder("now")))
  .limit(1)
  .prepare();

/** A read, so the sweep takes no write lock for nothing. */
export function hasExpiredHold(now: number): boolean {
  return dueHold.get({ now }) !== undefined;
}

/** workflows/expire-holds.server.ts gives back what each took. */
export function cancelExpiredHolds(tx: Tx, now: number): Booking[] {
  return tx
    .update(bookings)
    .set({
      status: "CANCELLED",
      cancellationReason: HOLD_EXPIRED_REASON,
      cancelledAt: now,
      holdExpiresAt: null,
    })
    .where(holdExpiredWhere(now))
    .returning()
    .all();
}

/** docs/product.md "Coupons": the coupon use returns once no live session of the order carries it. */
export function releaseCancelledSession(tx: Tx, booking: Booking) {
  if (booking.retainerBookingId !== null && booking.retainerHoursDrawn > 0) {
    tx.update(bookings)
      .set({
        retainerHoursUsed: sql`max(0, ${bookings.retainerHoursUsed} - ${booking.retainerHoursDrawn})`,
      })
      .where(eq(bookings.id, booking.retainerBookingId))
      .run();
  }
  releaseOrderCouponUse(tx, booking.orderId);
}

export function insertBooking(
  tx: Tx,
  values: NewBooking,
  chosen: readonly { id: number; price: number }[],
): Booking {
  const booking = tx.insert(bookings).values(values).returning().get();
  if (chosen.length > 0) {
    tx.insert(bookingServices)
      .values(
        chosen.map((service) => ({
          bookingId: booking.id,
          serviceId: service.id,
          priceAtBooking: service.price,
        })),
      )
      .run();
  }
  return booking;
}

export function recordBookingHistory(tx: Tx, entry: typeof bookingHistory.$inferInsert) {
  tx.insert(bookingHistory).values(entry).run();
}

/** Written once however often its cause is seen (a redelivered event, the success page). */
export function noteForStaffOnce(tx: Tx, booking: Booking, note: string, now: number) {
  const seen = tx
    .select({ id: bookingHistory.id })
    .from(bookingHistory)
    .where(and(eq(bookingHistory.bookingId, booking.id), eq(bookingHistory.note, note)))
    .get();
  if (seen) return;
  recordBookingHistory(tx, {
    bookingId: booking.id,
    actorUserId: null,
    fromStatus: booking.status,
    toStatus: booking.status,
    note,
    createdAt: now,
  });
}

/** The start is part of the condition; undefined when the booking changed meanwhile. */
export function moveBooking(
  tx: Tx,
  booking: Pick<Booking, "id" | "startsAt">,
  slot: { recordingDate: string; recordingTime: string; startsAt: number; endsAt: number },
): Booking | undefined {
  return tx
    .update(bookings)
    .set({ ...slot, reminderSentAt: null })
    .where(and(eq(bookings.id, booking.id), eq(bookings.startsAt, booking.startsAt)))
    .returning()
    .get();
}

export function getBooking(reader: Reader, id: number): Booking | undefined {
  return reader.select().from(bookings).where(eq(bookings.id, id)).get();
}

const OWN_BOOKINGS_LIMIT = 100;

const ownBookings = db
  .select(bookingColumnsAt(sql.placeholder("now")))
  .from(bookings)
  .where(eq(bookings.userId, sql.placeholder("userId")))
  .orderBy(desc(bookings.createdAt), desc(bookings.id))
  .limit(OWN_BOOKINGS_LIMIT)
  .prepare();

/** Newest first, as they read at `now` (domain/holds.ts). */
export function listOwnBookings(userId: number, now: number): Booking[] {
  return ownBookings.all({ userId, now }).map((booking) => asSweptAt(booking, now));
}

/** Another customer's booking is reported as missing, not forbidden. */
export function getOwnBooking(id: number, userId: number): Booking | undefined {
  return db
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, id), eq(bookings.userId, userId)))
    .get();
}

export function getBookingServices(reader: Reader, bookingId: number) {
  return reader
    .select({
      serviceId: bookingServices.serviceId,
      name: services.name,
      quantity: bookingServices.quantity,
      priceAtBooking: bookingServices.priceAtBooking,
    })
    .from(bookingServices)
    .innerJoin(services, eq(services.id, bookingServices.serviceId))
    .where(eq(bookingServices.bookingId, bookingId))
    .orderBy(asc(bookingServices.id))
    .all();
}

/** A hosted checkout cannot be shorter than the provider's minimum. */
export function extendHold(
  tx: Tx,
  bookingId: number,
  until: number,
  now: number,
): Booking | undefined {
  return tx
    .update(bookings)
    .set({ holdExpiresAt: sql`max(${bookings.holdExpiresAt}, ${until})` })
    .where(and(eq(bookings.id, bookingId), holdLiveWhere(now)))
    .returning()
    .get();
}

/** The server already creates $0 bookings CONFIRMED, so this answers with the booking unchanged. */
export function confirmOwnFreeBooking(id: number, userId: number): Booking | null {
  const booking = getOwnBooking(id, userId);
  if (booking?.totalCost !== 0 || booking.status !== "CONFIRMED") return null;
  return booking;
}

const dueReminders = db
  .select()
  .from(bookings)
  .where(
    and(
      eq(bookings.status, "CONFIRMED"),
      gt(bookings.startsAt, sql.placeholder("now")),
      lte(bookings.startsAt, sql.placeholder("until")),
      isNull(bookings.reminderSentAt),
    ),
  )
  .prepare();

export function listDueReminders(now: number, until: number): Booking[] {
  return dueReminders.all({ now, until });
}

/** All in the condition, so of two sweeps at once one marks it. True when this call did. */
export function markReminderSent(
  tx: Tx,
  booking: Pick<Booking, "id" | "startsAt">,
  now: number,
): boolean {
  const marked = tx
    .update(bookings)
    .set({ reminderSentAt: now })
    .where(
      and(
        eq(bookings.id, booking.id),
        eq(bookings.status, "CONFIRMED"),
        eq(bookings.startsAt, booking.startsAt),
        isNull(bookings.reminderSentAt),
      ),
    )
    .run();
  return marked.changes === 1;
}

/** docs/product.md "Weekly series": a series is one hold. Read in the booking's transaction so two requests cannot both see room. */
export function openUnpaidHolds(tx: Tx, userId: number, now: number): OpenHold[] {
  const rows = tx
    .select({
      id: bookings.id,
      recordingDate: bookings.recordingDate,
      recordingTime: bookings.recordingTime,
      orderId: bookings.orderId,
      repeatEvery: orders.repeatEvery,
    })
    .from(bookings)
    .leftJoin(orders, eq(orders.id, bookings.orderId))
    .where(and(eq(bookings.userId, userId), holdLiveWhere(now)))
    .orderBy(asc(bookings.id))
    .all();
  const seen = new Set<number>();
  const holds: OpenHold[] = [];
  for (const { orderId, repeatEvery, ...row } of rows) {
    if (orderId !== null && seen.has(orderId)) continue;
    if (orderId !== null) seen.add(orderId);
    holds.push({ ...row, seriesId: repeatEvery ? orderId : null });
  }
  return holds;
}

/** Counts session by session (a series counts each unpaid session), for MAX_UNPAID_SESSIONS. */
export function countUnpaidSessions(tx: Tx, userId: number, now: number): number {
  const row = tx
    .select({ n: count() })
    .from(bookings)
    .where(and(eq(bookings.userId, userId), holdLiveWhere(now)))
    .get();
  return row?.n ?? 0;
}

/** docs/product.md "Waitlist": joining over one's own booking is refused. Same rule as `readBusyRanges`. */
export function ownBookingOverlaps(
  tx: Tx,
  userId: number,
  range: { startsAt: number; endsAt: number },
  now: number,
): boolean {
  const row = tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.userId, userId),
        lt(bookings.startsAt, range.endsAt),
        gt(bookings.endsAt, range.startsAt),
        gt(bookings.startsAt, range.startsAt - LONGEST_SESSION_MS),
        keepsSlotWhere(now),
      ),
    )
    .limit(1)
    .get();
  return row !== undefined;
}
