import type { SQL } from "drizzle-orm";
import type { BookingStatus } from "../../../db/schema";

// Contract between the Bookings/Sessions tabs and the calendar (issue 6); the calendar work
// fills this in.

export type CalendarView = "month" | "week" | "day";

export type CalendarEvent = {
  id: number;
  /** The client's full name (spec section 2). */
  title: string;
  /** Studio wall time, "yyyy-MM-dd HH:mm". */
  start: string;
  end: string;
  status: BookingStatus;
  phone: string;
};

export type CalendarData = {
  view: CalendarView;
  /** The studio day the view shows (or the month it falls in), yyyy-MM-dd. */
  date: string;
  events: CalendarEvent[];
};

/**
 * The events of the range the URL asks for (`?cal=month|week|day&date=yyyy-MM-dd`), narrowed
 * by the tab's own filters (`where`, a condition on the bookings table).
 */
export function loadCalendar(_url: URL, _where: SQL | undefined): CalendarData {
  return { view: "month", date: "2026-01-01", events: [] };
}
