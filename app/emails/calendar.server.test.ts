import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { studioAddress } from "#app/domain/studio";
import { studioSession } from "#app/domain/studio-time";
import { sessionCalendar, sessionCalendarFilename } from "#app/emails/calendar.server";
import type { EmailBooking } from "#app/emails/templates.server";

// The instants are the booking's own, so the expectations hold in any process zone.
function booking(overrides: Partial<EmailBooking> = {}): EmailBooking {
  const { startsAt, endsAt } = studioSession("2026-11-01", "01:30", 3);
  return {
    id: 42,
    firstName: "Ada",
    recordingDate: "2026-11-01",
    recordingTime: "01:30",
    guestCount: "2",
    hoursNeeded: "3",
    startsAt,
    endsAt,
    totalCost: 600,
    couponCode: null,
    discountAmount: 0,
    status: "CONFIRMED",
    isRetainer: false,
    retainerTotalHours: 8,
    retainerHoursDrawn: 0,
    ...overrides,
  };
}

function event(text: string) {
  const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent");
  if (!vevent) throw new Error("no VEVENT");
  return new ICAL.Event(vevent);
}

describe("sessionCalendar", () => {
  it("is one event at the session's UTC instants, across the autumn clock change", () => {
    const session = booking();
    const parsed = event(sessionCalendar(session, "https://studio.example"));
    // 01:30 on 2026-11-01 happens twice in Atlanta: the booking is the first, 05:30Z.
    expect(parsed.startDate.toJSDate().toISOString()).toBe("2026-11-01T05:30:00.000Z");
    // Three elapsed hours, across the repeated hour: 03:30 EST, 08:30Z.
    expect(parsed.endDate.toJSDate().toISOString()).toBe("2026-11-01T08:30:00.000Z");
    expect(parsed.startDate.zone?.tzid).toBe("UTC");
  });

  it("names the booking, the studio and what the customer needs", () => {
    const text = sessionCalendar(booking(), "https://studio.example", Date.UTC(2026, 9, 1));
    const parsed = event(text);
    expect(parsed.uid).toBe("booking-42@studio.example");
    expect(parsed.summary).toBe("Recording session at ATL Creator Studio");
    expect(parsed.location).toBe(studioAddress());
    expect(parsed.component.getFirstPropertyValue("url")).toBe(
      "https://studio.example/dashboard/sessions/42",
    );
    expect(parsed.description.split("\n")).toEqual([
      "Booking #42",
      "Status: Confirmed",
      "Sunday, November 1, 2026, 1:30 AM – 3:30 AM (Atlanta time)",
      "Duration: 3 hours",
      "Guests: 2 guests",
      "Total: $600.00",
      "Questions? hello@atlcreatorstudio.com or (404) 555-0147",
    ]);
    expect(text).toContain("DTSTAMP:20261001T000000Z");
    expect(sessionCalendarFilename(booking())).toBe("studio-session-42.ics");
  });

  it("says whether the time is confirmed, held or released", () => {
    const status = (value: EmailBooking["status"]) =>
      event(
        sessionCalendar(booking({ status: value }), "https://studio.example"),
      ).component.getFirstPropertyValue("status");
    expect(status("CONFIRMED")).toBe("CONFIRMED");
    expect(status("COMPLETED")).toBe("CONFIRMED");
    expect(status("PENDING")).toBe("TENTATIVE");
    expect(status("PENDING_PAYMENT")).toBe("TENTATIVE");
    expect(status("CANCELLED")).toBe("CANCELLED");
  });
});
