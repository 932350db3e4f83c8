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

/**
 * Bookings: availability, the rows of a booking, holds and retainer draws. Writes take the
 * caller's transaction: the workflows (workflows/book-session, reschedule, reminders) run each
 * read-check-write in one IMMEDIATE transaction with no await inside, so the check and the
 * insert see the same database even with several server processes on one file.
 */
export type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];
type Reader = Pick<typeof db, "select">;
export type NewBooking = typeof bookings.$inferInsert;

/** Every booking's length is one of the form's choices, at most this long. */
const LONGEST_SESSION_MS = BOOKING_LIMITS.maxHours * 60 * 60_000;

// Every availability answer and every booking runs these two: built and prepared once, not
// per call (drizzle's query building and SQLite's prepare were most of an availability answer).
const liveBookingRanges = db
  .select({ startsAt: bookings.startsAt, endsAt: bookings.endsAt })
  .from(bookings)
  .where(
    and(
      lt(bookings.startsAt, sql.placeholder("to")),
      gt(bookings.endsAt, sql.placeholder("from")),
      // Implied by the line above, as no session is longer than maxHours, but it bounds the
      // index range on starts_at to the window instead of every booking before it.
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

// A waitlist offer holds its range for its customer until it runs out (docs/product.md
// "Waitlist"): busy for everyone else, like a booking with its buffer.
const offeredRanges = db
  .select({ startsAt: waitlistEntries.startsAt, endsAt: waitlistEntries.endsAt })
  .from(waitlistEntries)
  .where(
    and(
      eq(waitlistEntries.status, "OFFERED"),
      gt(waitlistEntries.offerExpiresAt, sql.placeholder("now")),
      lt(waitlistEntries.startsAt, sql.placeholder("to")),
      gt(waitlistEntries.endsAt, sql.placeholder("from")),
      // 0 excludes nothing: AUTOINCREMENT ids start at 1.
      ne(waitlistEntries.id, sql.placeholder("excludeOfferId")),
    ),
  )
  .prepare();

/**
 * The instants a live booking, a waitlist offer or a blocked range keeps from others near
 * `date`. Inside a write transaction this reads what the transaction sees: there is one
 * connection per process. A claim passes its own offer, which does not stand in its way.
 */
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

/**
 * The start times of `date` for a session of `hours`, free or not (GET /api/availability).
 * Moving a booking passes its id: its own current slot does not stand in its way; a waitlist
 * claim passes its offer's.
 */
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

/** Whether a session collides with anything (GET /api/bookings/check-conflicts). */
export function hasConflict(
  slot: { date: string; time: string; hours: number },
  now: number,
  bufferMinutes: number,
): boolean {
  const busy = readBusyRanges(busyWindowFor(slot.date, bufferMinutes), now);
  return startProblem({ ...slot, busy, now, bufferMinutes }) === "taken";
}

const drawer = bookingsAs("drawer");

/**
 * A retainer's hours used, less those its expired holds drew: the sweep gives them back, and
 * every read counts them as given back already.
 */
export function retainerHoursUsedAt(now: At): SQL<number> {
  const expiredDraws = db
    .select({ hours: sql`coalesce(sum(${drawer.retainerHoursDrawn}), 0)` })
    .from(drawer)
    .where(and(eq(drawer.retainerBookingId, bookings.id), holdExpiredWhere(now, drawer)));
  return sql<number>`(case when ${bookings.isRetainer} then ${bookings.retainerHoursUsed} - (${expiredDraws}) else ${bookings.retainerHoursUsed} end)`;
}

/** A whole booking row for a read at `now`; the caller shows it through `asSweptAt`. */
export function bookingColumnsAt(now: At) {
  return { ...getTableColumns(bookings), retainerHoursUsed: retainerHoursUsedAt(now) };
}

/**
 * The customer's paid retainer with hours left whose window has not ended, if any. A retainer
 * under a claim (being cancelled and refunded) is not offered: its hours cannot be drawn.
 */
export function getActiveRetainer(
  reader: Reader,
  userId: number,
  now: number,
): RetainerBalance | null {
  // Only the balance's columns: a whole booking row costs drizzle more to build than the query.
  const row = reader
    .select({
      id: bookings.id,
      retainerStartDate: bookings.retainerStartDate,
      retainerEndDate: bookings.retainerEndDate,
      retainerTotalHours: bookings.retainerTotalHours,
      retainerHoursUsed: retainerHoursUsedAt(now),
    })
    .from(bookings)
    .where(
      and(
        eq(bookings.userId, userId),
        eq(bookings.isRetainer, true),
        inArray(bookings.status, [...PAID_STATUSES]),
        sql`${bookings.retainerEndDate} > ${studioDateOf(now)}`,
        sql`${retainerHoursUsedAt(now)} < ${bookings.retainerTotalHours}`,
        isNull(bookings.claim),
      ),
    )
    .orderBy(asc(bookings.retainerEndDate))
    .get();
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

/**
 * Draws the hours a session on `date` may take from the customer's active retainer (as many
 * as it has left, within its window) and returns what it took; nothing when there is no such
 * retainer. Runs inside the booking's transaction, so the read and the increment see the same
 * balance.
 */
export function drawRetainerHours(
  tx: Tx,
  draw: { userId: number; date: string; hours: number },
  now: number,
): RetainerDraw {
  const retainer = getActiveRetainer(tx, draw.userId, now);
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

/** Whether any hold is due for the sweep: a read, so the sweep takes no write lock for nothing. */
export function hasExpiredHold(now: number): boolean {
  return dueHold.get({ now }) !== undefined;
}

/** Cancels every expired hold (workflows/expire-holds.server.ts gives back what each took). */
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

/**
 * Gives back what a cancelled session took: the retainer hours it drew, and its order's coupon
 * use once no live session of the order carries the discount (docs/product.md "Coupons").
 */
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

/** Writes a new booking and the services chosen with it, at the prices they have now. */
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

/** One line of a booking's history: who moved it from which status to which, and why. */
export function recordBookingHistory(tx: Tx, entry: typeof bookingHistory.$inferInsert) {
  tx.insert(bookingHistory).values(entry).run();
}

/**
 * A note for staff on a booking's history, written once however often its cause is seen (a
 * provider event delivered again, the success page asking after the webhook).
 */
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

/**
 * Moves a booking to another slot, provided it is still where `booking` says it was (the
 * start is part of the condition). The reminder belongs to the new time, so it is cleared.
 * Undefined when the booking changed meanwhile.
 */
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

/** A customer's list (GET /api/bookings, My Sessions); more than this is not one customer's. */
const OWN_BOOKINGS_LIMIT = 100;

// Prepared once: the dashboard's list is read far more often than anything is booked.
const ownBookings = db
  .select(bookingColumnsAt(sql.placeholder("now")))
  .from(bookings)
  .where(eq(bookings.userId, sql.placeholder("userId")))
  .orderBy(desc(bookings.createdAt), desc(bookings.id))
  .limit(OWN_BOOKINGS_LIMIT)
  .prepare();

/** The customer's own bookings, newest first, as they read at `now` (domain/holds.ts). */
export function listOwnBookings(userId: number, now: number): Booking[] {
  return ownBookings.all({ userId, now }).map((booking) => asSweptAt(booking, now));
}

/** A customer's own booking; another customer's is reported as missing, not forbidden. */
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

/**
 * Keeps an unpaid booking's slot held at least until `until` (a hosted checkout cannot be
 * shorter than the provider's minimum). Only a live hold can be extended.
 */
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

/**
 * PATCH /api/bookings/{id}/status by a customer: only confirming their own $0 booking. The
 * server already creates those CONFIRMED, so this answers with the booking unchanged.
 */
export function confirmOwnFreeBooking(id: number, userId: number): Booking | null {
  const booking = getOwnBooking(id, userId);
  if (booking?.totalCost !== 0 || booking.status !== "CONFIRMED") return null;
  return booking;
}

// Runs every minute: prepared once. The (status, starts_at) index bounds it to the window.
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

/** Confirmed sessions starting after `now` and by `until` that have had no reminder yet. */
export function listDueReminders(now: number, until: number): Booking[] {
  return dueReminders.all({ now, until });
}

/**
 * Marks a session's reminder as sent, only while it is still confirmed, at the same start and
 * unreminded (all in the condition), so of two sweeps at once one marks it. True when this
 * call did.
 */
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

/** The booking as the JSON API shows it: the fields of docs/product.md "Data" with ISO instants. */
export function toBookingJson(booking: Booking) {
  return {
    id: booking.id,
    userId: booking.userId,
    firstName: booking.firstName,
    lastName: booking.lastName,
    businessName: booking.businessName,
    phoneNumber: booking.phoneNumber,
    email: booking.email,
    stakeholder: booking.stakeholder,
    recordingDate: booking.recordingDate,
    recordingTime: booking.recordingTime,
    guestCount: booking.guestCount,
    hoursNeeded: booking.hoursNeeded,
    startsAt: new Date(booking.startsAt).toISOString(),
    endsAt: new Date(booking.endsAt).toISOString(),
    hourlyRate: booking.hourlyRate,
    totalCost: booking.totalCost,
    originalCost: booking.originalCost,
    couponId: booking.couponId,
    couponCode: booking.couponCode,
    discountAmount: booking.discountAmount,
    status: booking.status,
    holdExpiresAt: booking.holdExpiresAt ? new Date(booking.holdExpiresAt).toISOString() : null,
    isRetainer: booking.isRetainer,
    retainerStartDate: booking.retainerStartDate,
    retainerEndDate: booking.retainerEndDate,
    retainerHoursUsed: booking.retainerHoursUsed,
    retainerTotalHours: booking.retainerTotalHours,
    retainerHoursDrawn: booking.retainerHoursDrawn,
    createdAt: new Date(booking.createdAt).toISOString(),
  };
}

/**
 * The customer's unpaid holds that have not run out, oldest first: each unpaid booking, except
 * that a weekly series is one hold (docs/product.md "Weekly series"), named by its first
 * session. Read inside the booking's transaction, so two requests at once cannot both see room
 * for one more.
 */
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

/**
 * How many unpaid sessions of the customer's still hold their slot: what MAX_UNPAID_SESSIONS
 * counts, session by session (a series counts each of its unpaid sessions). Read inside the
 * booking's transaction, like `openUnpaidHolds`.
 */
export function countUnpaidSessions(tx: Tx, userId: number, now: number): number {
  const row = tx
    .select({ n: count() })
    .from(bookings)
    .where(and(eq(bookings.userId, userId), holdLiveWhere(now)))
    .get();
  return row?.n ?? 0;
}

/**
 * Whether one of the customer's own bookings keeps a slot that overlaps the range: the same
 * rule as `readBusyRanges`. Joining the waitlist over one's own booking is refused (docs/product.md
 * "Waitlist"). Read in the caller's transaction.
 */
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
        // Bounds the index range on (user_id, starts_at), as in liveBookingRanges.
        gt(bookings.startsAt, range.startsAt - LONGEST_SESSION_MS),
        keepsSlotWhere(now),
      ),
    )
    .limit(1)
    .get();
  return row !== undefined;
}
