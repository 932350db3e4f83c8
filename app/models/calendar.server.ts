import { and, asc, gte, lt, type SQL } from "drizzle-orm";
import { bookings } from "#db/schema";
import { db } from "#app/db.server";
import {
  type CalendarData,
  calendarRange,
  EVENT_CAP,
  readCalendarQuery,
} from "#app/domain/calendar-range";
import { asSweptAt } from "#app/domain/holds";
import { addStudioDays, studioDateOf, studioInstant } from "#app/domain/studio-time";
import { studioWallTimes } from "#app/domain/studio-wall-time";

// Contract between the Bookings/Sessions tabs and the calendar (issue 6): CalendarData, in
// domain/calendar-range.ts, which the calendar components read too.

/**
 * The sessions starting in [from, to), earliest first, one more than the cap (to tell that
 * there are more). An indexed range on `bookings.starts_at`: the client's name and phone are
 * copied onto each booking, so no join is needed.
 */
export function calendarQuery(from: number, to: number, where: SQL | undefined) {
  return db
    .select({
      id: bookings.id,
      firstName: bookings.firstName,
      lastName: bookings.lastName,
      phone: bookings.phoneNumber,
      status: bookings.status,
      holdExpiresAt: bookings.holdExpiresAt,
      claim: bookings.claim,
      cancellationReason: bookings.cancellationReason,
      cancelledAt: bookings.cancelledAt,
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
    })
    .from(bookings)
    .where(and(gte(bookings.startsAt, from), lt(bookings.startsAt, to), where))
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .limit(EVENT_CAP + 1);
}

/**
 * The events of the range the URL asks for (`?cal=month|week|day&around=yyyy-MM-dd`, the tab's
 * `?date=` when there is no `around`), narrowed by the tab's own filters (`where`, a condition
 * on the bookings table).
 */
export function loadCalendar(url: URL, where: SQL | undefined, now = Date.now()): CalendarData {
  const today = studioDateOf(now);
  const { view, around } = readCalendarQuery(url.searchParams, today);
  const range = calendarRange(view, around);
  // Studio midnights, so a 23- or 25-hour day (daylight saving) is covered exactly.
  const from = studioInstant(range.first, "00:00");
  const to = studioInstant(addStudioDays(range.last, 1), "00:00");
  const rows = calendarQuery(from, to, where).all();
  const wallTime = studioWallTimes();
  return {
    ...range,
    date: around,
    today,
    truncated: rows.length > EVENT_CAP,
    events: rows.slice(0, EVENT_CAP).map((row) => ({
      id: row.id,
      title: `${row.firstName} ${row.lastName}`.trim(),
      // From the instants, not the typed text: a skipped spring-forward time shows as the
      // time the session really starts, and the end is start plus the hours needed.
      start: wallTime(row.startsAt),
      end: wallTime(row.endsAt),
      status: asSweptAt(row, now).status,
      phone: row.phone,
    })),
  };
}
