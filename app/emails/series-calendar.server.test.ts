import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { seriesCalendar, seriesCalendarFilename } from "#app/emails/calendar.server";
import type { EmailBooking } from "#app/emails/templates.server";
import { emailSession } from "#tests/factories/email-booking";

/** A session of a Tuesday 7 PM series, around the autumn clock change (Nov 1, 2026). */
const session = (id: number, date: string, status: EmailBooking["status"] = "PENDING") =>
  emailSession(id, date, { status });

describe("seriesCalendar", () => {
  const sessions = [
    session(11, "2026-10-20"),
    session(12, "2026-10-27"),
    session(13, "2026-11-03", "CANCELLED"),
    session(14, "2026-11-10"),
  ];
  const text = seriesCalendar(sessions, "https://studio.example", Date.UTC(2026, 9, 1));
  const events = new ICAL.Component(ICAL.parse(text))
    .getAllSubcomponents("vevent")
    .map((vevent) => new ICAL.Event(vevent));

  it("holds one event per session, each with its booking's own UID", () => {
    expect(events.map((event) => event.uid)).toEqual([
      "booking-11@studio.example",
      "booking-12@studio.example",
      "booking-13@studio.example",
      "booking-14@studio.example",
    ]);
  });

  it("keeps 7 PM in New York on both sides of the clock change", () => {
    for (const [index, event] of events.entries()) {
      expect(event.startDate.toUnixTime() * 1000).toBe(sessions[index]?.startsAt);
    }
    // 7 PM EDT is 23:00 UTC, 7 PM EST is 00:00 UTC the next day.
    expect(new Date(sessions[0]?.startsAt ?? 0).toISOString()).toBe("2026-10-20T23:00:00.000Z");
    expect(new Date(sessions[3]?.startsAt ?? 0).toISOString()).toBe("2026-11-11T00:00:00.000Z");
  });

  it("marks a cancelled session CANCELLED so calendar apps take it out", () => {
    const status = (index: number) =>
      events[index]?.component.getFirstPropertyValue("status")?.toString();
    expect(status(2)).toBe("CANCELLED");
    expect(status(0)).toBe("TENTATIVE");
  });

  it("is named for the series", () => {
    expect(seriesCalendarFilename(7)).toBe("studio-series-7.ics");
  });
});
