import type { CalendarEvent as ScheduleXEvent } from "@schedule-x/calendar";
import { type CalendarEvent, dayOf } from "#app/domain/calendar-range";
import { STUDIO_TIME_ZONE } from "#app/domain/studio-time";
import { calendarIdOf } from "#app/components/admin/calendar-status";

/** Wall times from real instants: none falls in a spring-forward gap. */
const zoned = (wallTime: string) =>
  Temporal.PlainDateTime.from(wallTime.replace(" ", "T")).toZonedDateTime(STUDIO_TIME_ZONE, {
    disambiguation: "earlier",
  });

/** A two-day event would go to the all-day row, which this calendar does not have. */
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
