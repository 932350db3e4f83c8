import { describe, expect, it } from "vitest";
import {
  type RetainerBalance,
  retainerCovers,
  retainerHoursLeft,
  retainerHoursToDraw,
  retainerWindow,
} from "#app/domain/retainer";
import { studioInstant } from "#app/domain/studio-time";

const HOUR = 60 * 60 * 1000;

const retainer = (overrides: Partial<RetainerBalance> = {}): RetainerBalance => ({
  bookingId: 7,
  ...retainerWindow("2026-06-10"),
  totalHours: 8,
  usedHours: 0,
  ...overrides,
});

describe("retainerWindow", () => {
  it.each([
    ["2026-06-10", "2026-07-10"],
    ["2026-06-01", "2026-07-01"],
    // Month ends: 30 days, not "the same day next month".
    ["2026-01-31", "2026-03-02"],
    ["2026-07-31", "2026-08-30"],
    ["2026-12-15", "2027-01-14"],
    ["2026-12-31", "2027-01-30"],
    // February in a leap year.
    ["2028-02-15", "2028-03-16"],
    // Across the 2026 daylight-saving changes.
    ["2026-02-10", "2026-03-12"],
    ["2026-03-08", "2026-04-07"],
    ["2026-10-15", "2026-11-14"],
    ["2026-11-01", "2026-12-01"],
  ])("runs 30 days from %s to %s (exclusive)", (startDate, endDate) => {
    expect(retainerWindow(startDate)).toEqual({ startDate, endDate });
  });

  it("is 30 studio days long even when the clocks change inside it", () => {
    const { startDate, endDate } = retainerWindow("2026-10-15");
    // 30 x 24 h plus the extra hour of 1 November.
    expect(studioInstant(endDate, "00:00") - studioInstant(startDate, "00:00")).toBe(
      (30 * 24 + 1) * HOUR,
    );
  });
});

describe("retainerCovers", () => {
  const window = retainerWindow("2026-01-31"); // to 2026-03-02

  it("covers its start day through the day before its end", () => {
    expect(retainerCovers(window, "2026-01-31")).toBe(true);
    expect(retainerCovers(window, "2026-02-15")).toBe(true);
    expect(retainerCovers(window, "2026-02-28")).toBe(true);
    expect(retainerCovers(window, "2026-03-01")).toBe(true);
  });

  it("does not cover the end day or anything outside", () => {
    expect(retainerCovers(window, "2026-03-02")).toBe(false);
    expect(retainerCovers(window, "2026-01-30")).toBe(false);
    expect(retainerCovers(window, "2025-12-31")).toBe(false);
    expect(retainerCovers(window, "2027-02-15")).toBe(false);
  });
});

describe("retainerHoursLeft", () => {
  it("is total minus used, never negative", () => {
    expect(retainerHoursLeft(retainer())).toBe(8);
    expect(retainerHoursLeft(retainer({ usedHours: 3 }))).toBe(5);
    expect(retainerHoursLeft(retainer({ usedHours: 8 }))).toBe(0);
    expect(retainerHoursLeft(retainer({ usedHours: 10 }))).toBe(0);
    expect(retainerHoursLeft(retainer({ totalHours: 6, usedHours: 2 }))).toBe(4);
  });
});

describe("retainerHoursToDraw", () => {
  it("draws nothing without a retainer", () => {
    expect(retainerHoursToDraw(null, "2026-06-12", 4)).toBe(0);
  });

  it("draws every hour of a session inside the window while enough are left", () => {
    expect(retainerHoursToDraw(retainer(), "2026-06-12", 4)).toBe(4);
    expect(retainerHoursToDraw(retainer(), "2026-06-12", 8)).toBe(8);
    expect(retainerHoursToDraw(retainer({ usedHours: 3 }), "2026-06-20", 5)).toBe(5);
  });

  it("draws only what is left, so the rest is billed", () => {
    expect(retainerHoursToDraw(retainer({ usedHours: 6 }), "2026-06-20", 4)).toBe(2);
    expect(retainerHoursToDraw(retainer({ usedHours: 7 }), "2026-06-20", 2)).toBe(1);
  });

  it("draws nothing once the hours are used up", () => {
    expect(retainerHoursToDraw(retainer({ usedHours: 8 }), "2026-06-20", 3)).toBe(0);
    expect(retainerHoursToDraw(retainer({ usedHours: 9 }), "2026-06-20", 3)).toBe(0);
  });

  it("draws on the first and the last day of the window", () => {
    expect(retainerHoursToDraw(retainer(), "2026-06-10", 3)).toBe(3);
    expect(retainerHoursToDraw(retainer(), "2026-07-09", 3)).toBe(3);
  });

  it("draws nothing before the window or from its end day on", () => {
    expect(retainerHoursToDraw(retainer(), "2026-06-09", 3)).toBe(0);
    expect(retainerHoursToDraw(retainer(), "2026-07-10", 3)).toBe(0);
    expect(retainerHoursToDraw(retainer(), "2026-08-01", 3)).toBe(0);
  });
});
