import type { CalendarEvent as ScheduleXEvent } from "@schedule-x/calendar";
import { type CalendarEvent, dayOf } from "#app/domain/calendar-range";
import { STUDIO_TIME_ZONE } from "#app/domain/studio-time";
import { calendarIdOf } from "#app/components/admin/calendar-status";

/**
 * Our events as Schedule-X reads them: Temporal ZonedDateTimes in the studio's zone (global
 * Temporal, native or polyfilled before this runs). The wall times come from real instants,
 * so none falls in a spring-forward gap; a repeated autumn time is its first occurrence, as
 * `studioInstant` reads it.
 */
const zoned = (wallTime: string) =>
  Temporal.PlainDateTime.from(wallTime.replace(" ", "T")).toZonedDateTime(STUDIO_TIME_ZONE, {
    disambiguation: "earlier",
  });

/**
 * A session past midnight is drawn up to the end of its first day: a timed event spanning
 * two days would go to the all-day row, which this calendar does not have. The notice and the
 * list still give the real end.
 */
export function toScheduleX(event: CalendarEvent): ScheduleXEvent {
  const sameDay = dayOf(event.end) === dayOf(event.start);
  return {
    id: event.id,
    title: event.title,
    start: zoned(event.start),
    end: zoned(sameDay ? event.end : `${dayOf(event.start)} 23:59`),
    calendarId: calendarIdOf(event.status),
    _options: { disableDND: true, disableResize: true },
  };
}
