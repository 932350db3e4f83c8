import { format } from "date-fns";
import type { BookingStatus } from "#app/domain/booking-status";

/**
 * The admin calendar's range, from plain calendar dates of the URL (`cal`, `around`): no instant
 * and no zone, so a day is a day whatever the process or browser zone. Weeks start on Sunday.
 */
export const CALENDAR_VIEWS = ["month", "week", "day"] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

export type CalendarRange = {
  view: CalendarView;
  around: string;
  first: string;
  last: string;
  previous: string;
  next: string;
};

export type CalendarEvent = {
  id: number;
  /** The client's full name (docs/product.md "Screens"). */
  title: string;
  /** Studio wall time, "yyyy-MM-dd HH:mm". */
  start: string;
  end: string;
  status: BookingStatus;
  phone: string;
};

export type CalendarData = CalendarRange & {
  date: string;
  today: string;
  events: CalendarEvent[];
  truncated: boolean;
};

/** Only guards against pathological data (a bulk import): a real month holds a few hundred. */
export const EVENT_CAP = 1000;
export const EVENT_CAP_TEXT = `Only the first ${EVENT_CAP.toLocaleString("en-US")} sessions of this period are shown: narrow the filters or switch to Week or Day to see the rest.`;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
// Date.UTC reads years 0-99 as 1900-1999, and nobody books a studio in year 40000: outside
// this window a date in the URL is treated like any other bad value.
const MIN_YEAR = 1900;
const MAX_YEAR = 2999;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Of a yyyy-MM-dd already known to be well formed. */
function utcOf(date: string): number {
  return Date.UTC(
    Number(date.slice(0, 4)),
    Number(date.slice(5, 7)) - 1,
    Number(date.slice(8, 10)),
  );
}

const toDate = (utc: number) => new Date(utc).toISOString().slice(0, 10);

function plusDays(date: string, days: number): string {
  return toDate(utcOf(date) + days * DAY_MS);
}

function weekday(date: string): number {
  return new Date(utcOf(date)).getUTCDay();
}

function firstOfMonth(date: string, monthsLater = 0): string {
  const d = new Date(utcOf(date));
  return toDate(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + monthsLater, 1));
}

export function isCalendarDate(value: string | null): value is string {
  const match = value === null ? null : DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < MIN_YEAR || year > MAX_YEAR) return false;
  const probe = new Date(Date.UTC(year, month - 1, day));
  // A round trip refuses 2026-02-30 (Date.UTC would roll it over to March).
  return probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/** Anything unreadable falls back rather than failing: a calendar link is never an error page. */
export function readCalendarQuery(
  params: URLSearchParams,
  today: string,
): { view: CalendarView; around: string } {
  const cal = params.get("cal");
  const view = CALENDAR_VIEWS.find((name) => name === cal) ?? "month";
  const around = [params.get("around"), params.get("date"), today].find(isCalendarDate) ?? today;
  return { view, around };
}

export function calendarRange(view: CalendarView, around: string): CalendarRange {
  if (view === "day") {
    return {
      view,
      around,
      first: around,
      last: around,
      previous: plusDays(around, -1),
      next: plusDays(around, 1),
    };
  }
  if (view === "week") {
    const first = plusDays(around, -weekday(around));
    return {
      view,
      around,
      first,
      last: plusDays(first, 6),
      previous: plusDays(around, -7),
      next: plusDays(around, 7),
    };
  }
  // Whole weeks, so events in the leading and trailing days show too.
  const start = firstOfMonth(around);
  const end = plusDays(firstOfMonth(around, 1), -1);
  return {
    view,
    around,
    first: plusDays(start, -weekday(start)),
    last: plusDays(end, 6 - weekday(end)),
    previous: firstOfMonth(around, -1),
    next: firstOfMonth(around, 1),
  };
}

/** Noon local time of the same calendar day, for date-fns in any zone. */
function asLocalDay(date: string): Date {
  const utc = new Date(utcOf(date));
  return new Date(utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate(), 12);
}

export function formatDay(date: string, pattern: string): string {
  return format(asLocalDay(date), pattern);
}

/** A week across months or years names both ends. */
export function rangeHeading(range: CalendarRange): string {
  if (range.view === "month") return formatDay(range.around, "MMMM yyyy");
  if (range.view === "day") return formatDay(range.around, "EEEE, MMMM d, yyyy");
  const sameYear = range.first.slice(0, 4) === range.last.slice(0, 4);
  const sameMonth = sameYear && range.first.slice(5, 7) === range.last.slice(5, 7);
  if (sameMonth) {
    return `${formatDay(range.first, "MMMM d")} – ${formatDay(range.last, "d, yyyy")}`;
  }
  if (sameYear) {
    return `${formatDay(range.first, "MMMM d")} – ${formatDay(range.last, "MMMM d, yyyy")}`;
  }
  return `${formatDay(range.first, "MMMM d, yyyy")} – ${formatDay(range.last, "MMMM d, yyyy")}`;
}

export function dayOf(wallTime: string): string {
  return wallTime.slice(0, 10);
}

/** Plain arithmetic, not a Date: a browser whose own zone skips that hour must still show it. */
export function formatWallTime(wallTime: string): string {
  const hours = Number(wallTime.slice(11, 13));
  const minutes = wallTime.slice(14, 16);
  return `${hours % 12 || 12}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
}

export function wallTimeRange(start: string, end: string): string {
  const nextDay = dayOf(end) !== dayOf(start) ? " (next day)" : "";
  return `${formatWallTime(start)} – ${formatWallTime(end)}${nextDay}`;
}
