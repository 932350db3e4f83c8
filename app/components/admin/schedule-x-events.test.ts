import "temporal-polyfill/global";
import { describe, expect, it } from "vitest";
import { studioInstant } from "#app/domain/studio-time";
import type { CalendarEvent } from "#app/domain/calendar-range";
import { toScheduleX } from "#app/components/admin/schedule-x-events";

const event = (start: string, end: string, status = "CONFIRMED"): CalendarEvent => ({
  id: 7,
  title: "Jordan Lee",
  start,
  end,
  status: status as CalendarEvent["status"],
  phone: "404-555-0100",
});

const epoch = (value: unknown) => (value as Temporal.ZonedDateTime).epochMilliseconds;

describe("toScheduleX", () => {
  it("places an event at the studio's instants, in the studio's zone", () => {
    const converted = toScheduleX(event("2026-07-15 10:00", "2026-07-15 12:30"));
    expect(epoch(converted.start)).toBe(studioInstant("2026-07-15", "10:00"));
    expect(epoch(converted.end)).toBe(studioInstant("2026-07-15", "12:30"));
    expect((converted.start as Temporal.ZonedDateTime).timeZoneId).toBe("America/New_York");
    expect(converted).toMatchObject({ id: 7, title: "Jordan Lee", calendarId: "confirmed" });
  });

  it("keeps daylight-saving days right", () => {
    // Spring forward: 00:30 EST to 04:30 EDT is three elapsed hours.
    const spring = toScheduleX(event("2026-03-08 00:30", "2026-03-08 04:30"));
    expect(epoch(spring.end) - epoch(spring.start)).toBe(3 * 3_600_000);
    // Fall back: 01:30 is its first (daylight) occurrence, as studioInstant reads it.
    const fall = toScheduleX(event("2026-11-01 01:30", "2026-11-01 02:30", "POST_PRODUCTION"));
    expect(epoch(fall.start)).toBe(studioInstant("2026-11-01", "01:30"));
    expect(epoch(fall.end) - epoch(fall.start)).toBe(2 * 3_600_000);
    expect(fall.calendarId).toBe("post-production");
  });

  it("ends a session past midnight at the end of its first day", () => {
    const late = toScheduleX(event("2026-07-15 22:00", "2026-07-16 01:00", "CANCELLED"));
    expect(epoch(late.start)).toBe(studioInstant("2026-07-15", "22:00"));
    expect(epoch(late.end)).toBe(studioInstant("2026-07-15", "23:59"));
  });

  it("colours an unknown status grey", () => {
    expect(toScheduleX(event("2026-07-15 10:00", "2026-07-15 11:00", "ON_HOLD")).calendarId).toBe(
      "other",
    );
  });
});
