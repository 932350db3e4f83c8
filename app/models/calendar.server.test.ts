import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, users } from "#db/schema";
import type { BookingStatus } from "#app/domain/booking-status";
import { db } from "#app/db.server";
import { EVENT_CAP } from "#app/domain/calendar-range";
import { studioInstant, studioSession } from "#app/domain/studio-time";
import { calendarQuery, loadCalendar } from "#app/models/calendar.server";

/**
 * The calendar's read against a real, freshly migrated SQLite file. Expectations are studio
 * wall times, so they hold under TZ=UTC and TZ=Pacific/Auckland alike.
 */
let userId: number;

beforeAll(() => {
  userId = db
    .insert(users)
    .values({
      username: "calendar_owner",
      passwordHash: "x",
      firstName: "Cal",
      lastName: "Owner",
      phoneNumber: "404-555-0100",
      email: "calendar@example.com",
    })
    .returning({ id: users.id })
    .get().id;
});

function book(
  date: string,
  time: string,
  options: { hours?: number; status?: BookingStatus; first?: string; last?: string } = {},
): number {
  const hours = options.hours ?? 2;
  const { startsAt, endsAt } = studioSession(date, time, hours);
  return db
    .insert(bookings)
    .values({
      userId,
      firstName: options.first ?? "Avery",
      lastName: options.last ?? "Stone",
      phoneNumber: "404-555-0199",
      email: "avery@example.com",
      stakeholder: "no",
      recordingDate: date,
      recordingTime: time,
      guestCount: "1",
      hoursNeeded: String(hours),
      startsAt,
      endsAt,
      hourlyRate: 200,
      totalCost: hours * 200,
      originalCost: hours * 200,
      status: options.status ?? "CONFIRMED",
      // An unpaid one is held past the calendar's "now" (an expired hold reads as cancelled).
      holdExpiresAt: options.status === "PENDING_PAYMENT" ? endsAt : null,
    })
    .returning({ id: bookings.id })
    .get().id;
}

const calendar = (search: string, where?: Parameters<typeof loadCalendar>[1]) =>
  loadCalendar(
    new URL(`http://studio.test/admin/bookings?${search}`),
    where,
    studioInstant("2031-06-15", "12:00"),
  );

const ids = (data: ReturnType<typeof calendar>) => data.events.map((event) => event.id);

describe("loadCalendar", () => {
  it("returns the month grid's sessions, leading and trailing days included", () => {
    // June 2031 runs Sunday 1 to Monday 30: the grid ends on Saturday 5 July.
    const before = book("2031-05-31", "23:00", { hours: 1 });
    const firstDay = book("2031-06-01", "00:00", { hours: 1 });
    const inMonth = book("2031-06-15", "10:00", { first: "Jordan", last: "Lee" });
    const trailing = book("2031-07-05", "23:30", { hours: 1 });
    const after = book("2031-07-06", "00:00", { hours: 1 });

    const data = calendar("view=calendar&cal=month&around=2031-06-15");
    expect(data).toMatchObject({
      view: "month",
      date: "2031-06-15",
      first: "2031-06-01",
      last: "2031-07-05",
      previous: "2031-05-01",
      next: "2031-07-01",
      today: "2031-06-15",
      truncated: false,
    });
    expect(ids(data)).toEqual([firstDay, inMonth, trailing]);
    expect(ids(data)).not.toContain(before);
    expect(ids(data)).not.toContain(after);
    expect(data.events[1]).toEqual({
      id: inMonth,
      title: "Jordan Lee",
      start: "2031-06-15 10:00",
      end: "2031-06-15 12:00",
      status: "CONFIRMED",
      phone: "404-555-0199",
    });
  });

  it("shows a week from Sunday to Saturday and a single day", () => {
    const sunday = book("2031-08-03", "09:00");
    const saturday = book("2031-08-09", "18:00");
    const nextSunday = book("2031-08-10", "09:00");
    expect(ids(calendar("cal=week&around=2031-08-06"))).toEqual([sunday, saturday]);
    expect(ids(calendar("cal=day&around=2031-08-10"))).toEqual([nextSunday]);
    expect(ids(calendar("cal=day&around=2031-08-04"))).toEqual([]);
  });

  it("falls back to the tab's date, then to today, for a missing or bad day", () => {
    expect(calendar("cal=day&date=2031-08-10")).toMatchObject({ view: "day", date: "2031-08-10" });
    expect(calendar("cal=yearly&around=2031-02-30")).toMatchObject({
      view: "month",
      date: "2031-06-15",
    });
  });

  it("answers at the ends of the supported years", () => {
    expect(calendar("cal=month&around=1900-01-01")).toMatchObject({
      first: "1899-12-31",
      previous: "1899-12-01",
      events: [],
    });
    expect(calendar("cal=week&around=2999-12-31")).toMatchObject({
      last: "3000-01-04",
      events: [],
    });
    // One step past the ends reads as a bad value: today.
    expect(calendar("cal=month&around=1899-12-01").date).toBe("2031-06-15");
  });

  it("narrows by the tab's filter and keeps cancelled sessions", () => {
    const confirmed = book("2031-09-10", "10:00", { status: "CONFIRMED" });
    const cancelled = book("2031-09-10", "13:00", { status: "CANCELLED" });
    const pending = book("2031-09-10", "16:00", { status: "PENDING_PAYMENT" });
    const day = "cal=day&around=2031-09-10";
    expect(ids(calendar(day))).toEqual([confirmed, cancelled, pending]);
    expect(calendar(day).events.map((event) => event.status)).toEqual([
      "CONFIRMED",
      "CANCELLED",
      "PENDING_PAYMENT",
    ]);
    expect(ids(calendar(day, eq(bookings.status, "CANCELLED")))).toEqual([cancelled]);
    expect(ids(calendar(day, inArray(bookings.status, ["CONFIRMED", "PENDING_PAYMENT"])))).toEqual([
      confirmed,
      pending,
    ]);
  });

  it("gives studio wall times across daylight-saving changes", () => {
    // Spring forward: 02:30 does not exist and the session starts at 03:30; the 23-hour
    // day still holds its late-evening session.
    const skipped = book("2031-03-09", "02:30", { hours: 2 });
    const spring = book("2031-03-09", "00:30", { hours: 3 });
    const late = book("2031-03-09", "23:30", { hours: 1 });
    const spr = calendar("cal=day&around=2031-03-09");
    expect(ids(spr)).toEqual([spring, skipped, late]);
    expect(spr.events.map((event) => [event.start, event.end])).toEqual([
      // Three elapsed hours from 00:30 EST end at 04:30 EDT.
      ["2031-03-09 00:30", "2031-03-09 04:30"],
      ["2031-03-09 03:30", "2031-03-09 05:30"],
      ["2031-03-09 23:30", "2031-03-10 00:30"],
    ]);
    // Fall back: 01:30 is its first occurrence; two elapsed hours end at 02:30 on the clock.
    const repeated = book("2031-11-02", "01:30", { hours: 2 });
    const lastOfDay = book("2031-11-02", "23:00", { hours: 1 });
    const fall = calendar("cal=day&around=2031-11-02");
    expect(ids(fall)).toEqual([repeated, lastOfDay]);
    expect(fall.events.map((event) => [event.start, event.end])).toEqual([
      ["2031-11-02 01:30", "2031-11-02 02:30"],
      ["2031-11-02 23:00", "2031-11-03 00:00"],
    ]);
    expect(ids(calendar("cal=day&around=2031-11-03"))).toEqual([]);
  });

  it("crosses a year edge in a month grid", () => {
    // January 2032 runs Thursday to Saturday: its grid is 28 December 2031 to 31 January.
    const oldYear = book("2031-12-28", "11:00");
    const newYear = book("2032-01-01", "11:00");
    const data = calendar("cal=month&around=2032-01-20");
    expect(data).toMatchObject({ first: "2031-12-28", last: "2032-01-31" });
    expect(ids(data)).toEqual([oldYear, newYear]);
    expect(ids(calendar("cal=month&around=2031-12-05"))).toContain(newYear);
  });

  it("caps the events of a period and says so", () => {
    const day = "2033-01-05";
    db.transaction((tx) => {
      for (let index = 0; index <= EVENT_CAP; index += 1) {
        const startsAt = studioInstant(day, "09:00") + index * 1000;
        tx.insert(bookings)
          .values({
            userId,
            firstName: "Bulk",
            lastName: String(index),
            phoneNumber: "404-555-0100",
            email: "bulk@example.com",
            stakeholder: "no",
            recordingDate: day,
            recordingTime: "09:00",
            guestCount: "1",
            hoursNeeded: "1",
            startsAt,
            endsAt: startsAt + 3_600_000,
            hourlyRate: 200,
            totalCost: 200,
            originalCost: 200,
            status: "CANCELLED",
          })
          .run();
      }
    });
    const data = calendar(`cal=day&around=${day}`);
    expect(data.truncated).toBe(true);
    expect(data.events).toHaveLength(EVENT_CAP);
    expect(data.events[0]?.title).toBe("Bulk 0");
    expect(calendar("cal=day&around=2033-01-06").truncated).toBe(false);
  });

  it("reads the range through the starts_at index", () => {
    const plan = (where?: Parameters<typeof calendarQuery>[2]) => {
      const { sql, params } = calendarQuery(0, 1, where).toSQL();
      return db.$client
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((row) => (row as { detail: string }).detail)
        .join("\n");
    };
    expect(plan()).toMatch(
      /SEARCH bookings USING INDEX bookings_starts_at \(starts_at>\? AND starts_at<\?\)/,
    );
    expect(plan()).not.toMatch(/TEMP B-TREE/);
    expect(plan(eq(bookings.status, "CONFIRMED"))).toMatch(/SEARCH bookings USING INDEX/);
  });
});
