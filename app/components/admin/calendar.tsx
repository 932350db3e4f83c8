import type { CalendarData } from "../../services/admin/calendar.server";

/**
 * The bookings calendar (Schedule-X). `detailsHref(date)` is where 'View Details' goes: the
 * tab's list mode on that studio day. Placeholder until the calendar work lands (issue 6).
 */
export function AdminCalendar({
  data,
}: {
  data: CalendarData;
  detailsHref: (date: string) => string;
}) {
  return <p>{data.events.length} sessions</p>;
}
