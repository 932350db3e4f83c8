import { describe, expect, it } from "vitest";
import {
  calendarRange,
  formatDay,
  formatWallTime,
  isCalendarDate,
  rangeHeading,
  readCalendarQuery,
  wallTimeRange,
} from "#app/domain/calendar-range";

const TODAY = "2026-11-23"; // a Monday

const query = (search: string) => readCalendarQuery(new URLSearchParams(search), TODAY);

describe("readCalendarQuery", () => {
  it("defaults to the month of today", () => {
    expect(query("")).toEqual({ view: "month", around: TODAY });
  });

  it("reads the view and the day", () => {
    expect(query("cal=week&around=2026-03-08")).toEqual({ view: "week", around: "2026-03-08" });
    expect(query("cal=day&around=2027-01-01")).toEqual({ view: "day", around: "2027-01-01" });
  });

  it("falls back to the tab's date filter, then today", () => {
    expect(query("cal=day&date=2026-12-24")).toEqual({ view: "day", around: "2026-12-24" });
    expect(query("around=2026-12-31&date=2026-12-24").around).toBe("2026-12-31");
    expect(query("around=nope&date=2026-12-24").around).toBe("2026-12-24");
    expect(query("around=nope&date=2026-02-30").around).toBe(TODAY);
  });

  it("reads bad values as the defaults", () => {
    for (const cal of ["", "Month", "year", "list", "month ", "%00"]) {
      expect(query(`cal=${encodeURIComponent(cal)}`).view).toBe("month");
    }
    for (const around of [
      "2026-02-29",
      "2026-13-01",
      "2026-00-10",
      "2026-1-5",
      "20261123",
      "0040-01-01",
      "40000-01-01",
      "2026-11-23T10:00",
      "",
    ]) {
      expect(query(`cal=day&around=${encodeURIComponent(around)}`)).toEqual({
        view: "day",
        around: TODAY,
      });
    }
  });

  it("uses the first value of a repeated parameter", () => {
    expect(query("cal=week&cal=day&around=2026-05-05&around=2026-06-06")).toEqual({
      view: "week",
      around: "2026-05-05",
    });
  });
});

describe("isCalendarDate", () => {
  it("accepts real days only", () => {
    expect(isCalendarDate("2028-02-29")).toBe(true);
    expect(isCalendarDate("2026-02-29")).toBe(false);
    expect(isCalendarDate("2100-02-29")).toBe(false);
    expect(isCalendarDate(null)).toBe(false);
  });
});

describe("calendarRange", () => {
  it("shows one day in day view, with the days either side as neighbours", () => {
    expect(calendarRange("day", "2026-11-23")).toEqual({
      view: "day",
      around: "2026-11-23",
      first: "2026-11-23",
      last: "2026-11-23",
      previous: "2026-11-22",
      next: "2026-11-24",
    });
  });

  it("crosses month and year edges day by day", () => {
    const newYearsEve = calendarRange("day", "2026-12-31");
    expect([newYearsEve.previous, newYearsEve.next]).toEqual(["2026-12-30", "2027-01-01"]);
    const leap = calendarRange("day", "2028-02-28");
    expect(leap.next).toBe("2028-02-29");
    expect(calendarRange("day", "2028-03-01").previous).toBe("2028-02-29");
  });

  it("runs a week from Sunday to Saturday", () => {
    // Monday, Sunday and Saturday of the same week.
    for (const around of ["2026-11-23", "2026-11-22", "2026-11-28"]) {
      const week = calendarRange("week", around);
      expect([week.first, week.last]).toEqual(["2026-11-22", "2026-11-28"]);
    }
    const week = calendarRange("week", "2026-11-25");
    expect([week.previous, week.next]).toEqual(["2026-11-18", "2026-12-02"]);
  });

  it("keeps weeks whole across months, years and daylight-saving changes", () => {
    expect(calendarRange("week", "2026-12-31")).toMatchObject({
      first: "2026-12-27",
      last: "2027-01-02",
    });
    // 2026-03-08 (spring forward) and 2026-11-01 (fall back) are Sundays: they start a week.
    expect(calendarRange("week", "2026-03-08")).toMatchObject({
      first: "2026-03-08",
      last: "2026-03-14",
    });
    expect(calendarRange("week", "2026-10-31")).toMatchObject({
      first: "2026-10-25",
      last: "2026-10-31",
    });
    expect(calendarRange("week", "2026-11-01")).toMatchObject({
      first: "2026-11-01",
      last: "2026-11-07",
    });
  });

  it("shows the whole weeks around a month", () => {
    // November 2026 starts on a Sunday and ends on a Monday.
    expect(calendarRange("month", "2026-11-23")).toEqual({
      view: "month",
      around: "2026-11-23",
      first: "2026-11-01",
      last: "2026-12-05",
      previous: "2026-10-01",
      next: "2026-12-01",
    });
    // January 2027 starts on a Friday and ends on a Sunday: six rows.
    expect(calendarRange("month", "2027-01-01")).toMatchObject({
      first: "2026-12-27",
      last: "2027-02-06",
      previous: "2026-12-01",
      next: "2027-02-01",
    });
    // February 2026 is exactly four weeks, Sunday to Saturday.
    expect(calendarRange("month", "2026-02-14")).toMatchObject({
      first: "2026-02-01",
      last: "2026-02-28",
    });
    // A leap February, ending on a Tuesday.
    expect(calendarRange("month", "2028-02-29")).toMatchObject({
      first: "2028-01-30",
      last: "2028-03-04",
    });
  });

  it("computes the grids at the ends of the supported years", () => {
    expect(calendarRange("month", "2999-12-15")).toMatchObject({
      first: "2999-12-01",
      last: "3000-01-04",
      next: "3000-01-01",
    });
    expect(calendarRange("month", "1900-01-10")).toMatchObject({
      first: "1899-12-31",
      last: "1900-02-03",
      previous: "1899-12-01",
    });
  });

  it("steps a month from the 31st without skipping the short month", () => {
    expect(calendarRange("month", "2027-01-31").next).toBe("2027-02-01");
    expect(calendarRange("month", "2027-03-31").previous).toBe("2027-02-01");
    expect(calendarRange("month", "2026-12-15").next).toBe("2027-01-01");
  });
});

describe("headings and wall times", () => {
  it("names the period", () => {
    expect(rangeHeading(calendarRange("month", "2026-11-23"))).toBe("November 2026");
    expect(rangeHeading(calendarRange("day", "2026-11-23"))).toBe("Monday, November 23, 2026");
    expect(rangeHeading(calendarRange("week", "2026-11-23"))).toBe("November 22 – 28, 2026");
    expect(rangeHeading(calendarRange("week", "2026-12-02"))).toBe(
      "November 29 – December 5, 2026",
    );
    expect(rangeHeading(calendarRange("week", "2026-12-31"))).toBe(
      "December 27, 2026 – January 2, 2027",
    );
  });

  it("formats studio days and wall times in any process zone", () => {
    expect(formatDay("2026-03-08", "MMMM d, yyyy")).toBe("March 8, 2026");
    expect(formatWallTime("2026-03-08 02:30")).toBe("2:30 AM");
    expect(formatWallTime("2026-03-08 00:00")).toBe("12:00 AM");
    expect(formatWallTime("2026-03-08 12:05")).toBe("12:05 PM");
    expect(formatWallTime("2026-03-08 23:59")).toBe("11:59 PM");
  });

  it("marks an end on the next day", () => {
    expect(wallTimeRange("2026-11-23 10:00", "2026-11-23 12:30")).toBe("10:00 AM – 12:30 PM");
    expect(wallTimeRange("2026-11-23 22:00", "2026-11-24 01:00")).toBe(
      "10:00 PM – 1:00 AM (next day)",
    );
  });
});
