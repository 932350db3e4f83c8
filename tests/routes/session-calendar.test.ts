import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import type { BookingStatus } from "#app/domain/booking-status";
import { createBooking } from "#tests/factories/booking";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * Download Details as a calendar file (GET /api/bookings/{id}/ics) and the customer's own
 * list (GET /api/bookings), against the app in process: only the owner gets either, and
 * the event starts at the booking's instant, daylight-saving days included.
 */
const server = appForThisFile();
const people = actorsFor(server);

type Seeded = { id: number; startsAt: number; endsAt: number };

/** A booking written straight into the database, on any day (the 48-hour rule is not tested here). */
function seedBooking(
  owner: Actor,
  date: string,
  time: string,
  hours = 2,
  status: BookingStatus = "CONFIRMED",
): Seeded {
  return createBooking(people.db(), { user: owner, date, time, hours, status, guestCount: "2" });
}

function get(path: string, actor?: Actor) {
  return fetch(`${server.url}${path}`, {
    headers: actor ? { Cookie: actor.cookie } : {},
  });
}

function parseEvent(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents("vevent");
  expect(events).toHaveLength(1);
  const event = new ICAL.Event(events[0]);
  return { calendar, event };
}

describe("GET /api/bookings/{id}/ics", () => {
  it("gives the owner one event at the booking's instants, as an attachment", async () => {
    const owner = await people.signUp();
    const booking = seedBooking(owner, "2026-12-15", "10:00", 3);
    const response = await get(`/api/bookings/${booking.id}/ics`, owner);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="studio-session-${booking.id}.ics"`,
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const { event } = parseEvent(await response.text());
    expect(event.startDate.toJSDate().getTime()).toBe(booking.startsAt);
    expect(event.endDate.toJSDate().getTime()).toBe(booking.endsAt);
    // UTC instants: a calendar in any zone shows 10:00 in Atlanta at the right moment.
    expect(event.startDate.zone?.tzid).toBe("UTC");
    expect(event.uid).toMatch(new RegExp(`^booking-${booking.id}@`));
    expect(event.location).toBe("ATL Creator Studio, 675 Ponce de Leon Ave NE, Atlanta, GA 30308");
    expect(event.summary).toBe("Recording session at ATL Creator Studio");
    expect(event.description).toContain(`Booking #${booking.id}`);
    expect(event.description).toContain("Status: Confirmed");
    expect(event.description).toContain("Duration: 3 hours");
    expect(event.description).toContain("Guests: 2 guests");
    expect(event.description).toContain("Total: $600.00");
  });

  it("keeps the same UID for the same booking", async () => {
    const owner = await people.signUp();
    const booking = seedBooking(owner, "2026-12-16", "10:00");
    const first = parseEvent(await (await get(`/api/bookings/${booking.id}/ics`, owner)).text());
    const second = parseEvent(await (await get(`/api/bookings/${booking.id}/ics`, owner)).text());
    expect(first.event.uid).toBe(second.event.uid);
  });

  it("places sessions on daylight-saving days at their real instants", async () => {
    const owner = await people.signUp();
    const cases = [
      // Spring forward: 03:00 on 2026-03-08 is EDT (07:00Z), two hours after 00:00 EST.
      { date: "2026-03-08", time: "03:00", utc: "2026-03-08T07:00:00.000Z" },
      // The session that spans the jump: 4 elapsed hours from 00:00 EST end at 05:00 EDT.
      { date: "2026-03-08", time: "00:00", utc: "2026-03-08T05:00:00.000Z", hours: 4 },
      // Fall back: 01:30 on 2026-11-01 happens twice; the booking is the first (EDT, 05:30Z).
      { date: "2026-11-01", time: "01:30", utc: "2026-11-01T05:30:00.000Z" },
    ];
    for (const { date, time, utc, hours } of cases) {
      const booking = seedBooking(owner, date, time, hours ?? 2);
      const response = await get(`/api/bookings/${booking.id}/ics`, owner);
      expect(response.status).toBe(200);
      const { event } = parseEvent(await response.text());
      expect(event.startDate.toJSDate().toISOString(), `${date} ${time}`).toBe(utc);
      expect(event.startDate.toJSDate().getTime()).toBe(booking.startsAt);
      expect(event.endDate.toJSDate().getTime()).toBe(booking.endsAt);
    }
  });

  it("marks a cancelled session cancelled and an unpaid one tentative", async () => {
    const owner = await people.signUp();
    const cancelled = seedBooking(owner, "2026-12-17", "10:00", 2, "CANCELLED");
    const unpaid = seedBooking(owner, "2026-12-18", "10:00", 2, "PENDING");
    for (const [booking, status] of [
      [cancelled, "CANCELLED"],
      [unpaid, "TENTATIVE"],
    ] as const) {
      const text = await (await get(`/api/bookings/${booking.id}/ics`, owner)).text();
      expect(parseEvent(text).event.component.getFirstPropertyValue("status")).toBe(status);
    }
  });

  it("answers 404 for another customer's booking, an admin's look and a missing one", async () => {
    const owner = await people.signUp();
    const other = await people.signUp();
    const admin = await people.signUpAdmin();
    const booking = seedBooking(owner, "2026-12-19", "10:00");
    for (const [path, actor] of [
      [`/api/bookings/${booking.id}/ics`, other],
      [`/api/bookings/${booking.id}/ics`, admin],
      ["/api/bookings/99999999/ics", owner],
      ["/api/bookings/0x10/ics", owner],
    ] as const) {
      const response = await get(path, actor);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ message: "Booking not found" });
    }
  });

  it("answers 401 JSON to a visitor", async () => {
    const owner = await people.signUp();
    const booking = seedBooking(owner, "2026-12-20", "10:00");
    const response = await get(`/api/bookings/${booking.id}/ics`);
    expect(response.status).toBe(401);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    expect(((await response.json()) as { message: string }).message).toBeTruthy();
  });
});

describe("GET /api/bookings", () => {
  it("lists only the caller's own bookings", async () => {
    const owner = await people.signUp();
    const other = await people.signUp();
    const mine = [
      seedBooking(owner, "2026-12-21", "10:00"),
      seedBooking(owner, "2025-01-10", "10:00"),
    ];
    const theirs = seedBooking(other, "2026-12-22", "10:00");
    const response = await get("/api/bookings", owner);
    expect(response.status).toBe(200);
    const list = (await response.json()) as { id: number; userId: number }[];
    expect(list.map((booking) => booking.id).sort()).toEqual(mine.map((b) => b.id).sort());
    expect(list.every((booking) => booking.userId === owner.id)).toBe(true);
    expect(list.map((booking) => booking.id)).not.toContain(theirs.id);
  });
});
