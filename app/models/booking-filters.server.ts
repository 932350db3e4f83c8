import { and, eq, gte, lt, not, or, type SQL, sql } from "drizzle-orm";
import { bookings, users } from "#db/schema";
import { BOOKING_STATUSES } from "#app/domain/booking-status";
import { type BookingFilters, MEMBERSHIP_FILTERS, VIEWS } from "#app/domain/booking-filters";
import { addStudioDays, studioDateOf, studioInstant } from "#app/domain/studio-time";
import { readPage } from "#app/models/pagination.server";
import { holdExpiredWhere } from "#app/models/holds.server";

/**
 * The Bookings and Sessions tabs' filters (docs/product.md "Screens"), read from the URL and turned
 * into one SQL condition on the bookings table. The calendar narrows its events with the same
 * condition (without the single-day date, which the calendar's own range replaces).
 */

const pick = <T extends string>(values: readonly T[], raw: string | null, fallback: T): T =>
  values.find((value) => value === raw) ?? fallback;

/** A real calendar day (2026-02-30 is not), in the years a studio booking can have. */
export function readStudioDay(raw: string | null): string | null {
  if (raw === null || !/^(19|20)\d\d-\d\d-\d\d$/.test(raw)) return null;
  try {
    return studioDateOf(studioInstant(raw, "12:00")) === raw ? raw : null;
  } catch {
    return null;
  }
}

/** Anything unknown reads as "no filter": a hand-edited URL shows a list, never an error. */
export function readBookingFilters(url: URL): BookingFilters {
  const params = url.searchParams;
  const status = params.get("status")?.toUpperCase() ?? null;
  return {
    date: readStudioDay(params.get("date")),
    status: BOOKING_STATUSES.find((known) => known === status) ?? null,
    membership: pick(MEMBERSHIP_FILTERS, params.get("membership"), "all"),
    view: pick(VIEWS, params.get("view"), "list"),
    page: readPage(url),
  };
}

/** The instants of a studio day: [its midnight, the next midnight), 23 or 25 hours on DST days. */
export function studioDayRange(date: string): { from: number; to: number } {
  return {
    from: studioInstant(date, "00:00"),
    to: studioInstant(addStudioDays(date, 1), "00:00"),
  };
}

/**
 * The filters as a condition on `bookings` only (membership is a correlated EXISTS, so any
 * query on the table can use it). `withDate: false` leaves the day out, for the calendar.
 * Every part rides an index: the day on bookings_starts_at, the status with it on
 * bookings_status_starts_at, the client's membership on the users primary key. An expired hold
 * counts as cancelled (domain/holds.ts).
 */
export function bookingFilterWhere(
  filters: Pick<BookingFilters, "date" | "status" | "membership">,
  now: number,
  options: { withDate: boolean } = { withDate: true },
): SQL | undefined {
  const conditions: SQL[] = [];
  if (options.withDate && filters.date) {
    const { from, to } = studioDayRange(filters.date);
    conditions.push(gte(bookings.startsAt, from), lt(bookings.startsAt, to));
  }
  if (filters.status === "CANCELLED") {
    conditions.push(or(eq(bookings.status, "CANCELLED"), holdExpiredWhere(now)) as SQL);
  } else if (filters.status === "PENDING_PAYMENT") {
    conditions.push(eq(bookings.status, "PENDING_PAYMENT"), not(holdExpiredWhere(now)));
  } else if (filters.status) {
    conditions.push(eq(bookings.status, filters.status));
  }
  if (filters.membership !== "all") {
    const member = filters.membership === "members" ? 1 : 0;
    conditions.push(
      sql`exists (select 1 from ${users} where ${users.id} = ${bookings.userId} and ${users.isMember} = ${member})`,
    );
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}
