import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isStudioDay,
  PERIOD_MESSAGES,
  type PeriodChoice,
  periodParams,
  periodRange,
  periodSlug,
  readPeriod,
  weekStart,
} from "#app/domain/sales-period";

// Expectations are UTC instants, so they hold in any process zone (the suite runs under
// TZ=UTC and TZ=Pacific/Auckland).
const utc = (iso: string) => Date.parse(iso);
const HOUR = 60 * 60 * 1000;
const choice = (
  period: PeriodChoice["period"],
  from: string | null = null,
  to: string | null = null,
) => ({ period, from, to }) as PeriodChoice;
const read = (query: string) => readPeriod(new URLSearchParams(query));
const range = (period: PeriodChoice["period"], now: string) =>
  periodRange(choice(period), utc(now));

describe("sales period: Today", () => {
  it("is the studio day, not the UTC day: 23:59:59.999 and 00:00 studio time", () => {
    // 2026-01-15 23:59:59.999 in Atlanta (EST, UTC-5) is already the 16th in UTC.
    expect(range("today", "2026-01-16T04:59:59.999Z")).toEqual({
      start: utc("2026-01-15T05:00:00Z"),
      end: utc("2026-01-16T05:00:00Z"),
    });
    expect(range("today", "2026-01-16T05:00:00Z")).toEqual({
      start: utc("2026-01-16T05:00:00Z"),
      end: utc("2026-01-17T05:00:00Z"),
    });
  });

  it("is 23 hours on the spring-forward day and 25 on the fall-back day", () => {
    const spring = range("today", "2026-03-09T03:59:59.999Z");
    expect(spring).toEqual({
      start: utc("2026-03-08T05:00:00Z"),
      end: utc("2026-03-09T04:00:00Z"),
    });
    expect((spring.end ?? 0) - (spring.start ?? 0)).toBe(23 * HOUR);
    expect(range("today", "2026-03-09T04:00:00Z").start).toBe(utc("2026-03-09T04:00:00Z"));

    const fall = range("today", "2026-11-01T12:00:00Z");
    expect(fall).toEqual({ start: utc("2026-11-01T04:00:00Z"), end: utc("2026-11-02T05:00:00Z") });
    expect((fall.end ?? 0) - (fall.start ?? 0)).toBe(25 * HOUR);
    // 23:59:59.999 on the fall-back day is still that day; a millisecond later is the 2nd.
    expect(range("today", "2026-11-02T04:59:59.999Z").start).toBe(utc("2026-11-01T04:00:00Z"));
    expect(range("today", "2026-11-02T05:00:00Z").start).toBe(utc("2026-11-02T05:00:00Z"));
  });
});

describe("sales period: This Week (from Sunday)", () => {
  it("starts on the Sunday of the studio week, including on Sunday itself", () => {
    expect(weekStart("2026-11-25")).toBe("2026-11-22");
    expect(weekStart("2026-11-22")).toBe("2026-11-22");
    expect(weekStart("2026-11-21")).toBe("2026-11-15");
    // Saturday 23:59:59.999 studio time belongs to the week before the Sunday that follows.
    expect(range("week", "2026-03-08T04:59:59.999Z").start).toBe(utc("2026-03-01T05:00:00Z"));
    expect(range("week", "2026-03-08T05:00:00Z").start).toBe(utc("2026-03-08T05:00:00Z"));
  });

  it("spans the spring-forward change (167 hours)", () => {
    const week = range("week", "2026-03-10T15:00:00Z");
    expect(week).toEqual({ start: utc("2026-03-08T05:00:00Z"), end: utc("2026-03-15T04:00:00Z") });
  });

  it("spans a month and a year boundary", () => {
    expect(range("week", "2027-01-01T15:00:00Z")).toEqual({
      start: utc("2026-12-27T05:00:00Z"),
      end: utc("2027-01-03T05:00:00Z"),
    });
    expect(range("week", "2026-10-01T15:00:00Z")).toEqual({
      start: utc("2026-09-27T04:00:00Z"),
      end: utc("2026-10-04T04:00:00Z"),
    });
  });
});

describe("sales period: This Month and Year to Date", () => {
  it("starts at the studio's first of the month, through the month's end", () => {
    expect(range("month", "2026-11-15T15:00:00Z")).toEqual({
      start: utc("2026-11-01T04:00:00Z"),
      end: utc("2026-12-01T05:00:00Z"),
    });
    // 23:59:59.999 on Oct 31 in Atlanta is November in UTC, and still October here.
    expect(range("month", "2026-11-01T03:59:59.999Z").start).toBe(utc("2026-10-01T04:00:00Z"));
    expect(range("month", "2026-11-01T04:00:00Z").start).toBe(utc("2026-11-01T04:00:00Z"));
  });

  it("turns over at the studio's New Year, not UTC's", () => {
    expect(range("ytd", "2027-01-01T04:59:59.999Z")).toEqual({
      start: utc("2026-01-01T05:00:00Z"),
      end: utc("2027-01-01T05:00:00Z"),
    });
    expect(range("ytd", "2027-01-01T05:00:00Z")).toEqual({
      start: utc("2027-01-01T05:00:00Z"),
      end: utc("2028-01-01T05:00:00Z"),
    });
    expect(range("month", "2027-01-01T05:00:00Z").start).toBe(utc("2027-01-01T05:00:00Z"));
    expect(range("month", "2026-12-31T15:00:00Z").end).toBe(utc("2027-01-01T05:00:00Z"));
  });
});

describe("sales period: All Time and Custom Range", () => {
  it("All Time has no bounds", () => {
    expect(range("all", "2026-11-15T15:00:00Z")).toEqual({ start: null, end: null });
  });

  it("covers whole studio days from `from` through `to`, either side open", () => {
    const now = utc("2026-11-15T15:00:00Z");
    expect(periodRange(choice("custom", "2026-03-08", "2026-03-08"), now)).toEqual({
      start: utc("2026-03-08T05:00:00Z"),
      end: utc("2026-03-09T04:00:00Z"),
    });
    expect(periodRange(choice("custom", "2026-10-31", "2026-11-01"), now)).toEqual({
      start: utc("2026-10-31T04:00:00Z"),
      end: utc("2026-11-02T05:00:00Z"),
    });
    expect(periodRange(choice("custom", "2026-01-01", null), now)).toEqual({
      start: utc("2026-01-01T05:00:00Z"),
      end: null,
    });
    expect(periodRange(choice("custom", null, "2025-12-31"), now)).toEqual({
      start: null,
      end: utc("2026-01-01T05:00:00Z"),
    });
    expect(periodRange(choice("custom"), now)).toEqual({ start: null, end: null });
  });

  it("always starts and ends on whole UTC hours (what the sales rollup needs)", () => {
    const periods = ["today", "week", "month", "ytd"] as const;
    fc.assert(
      fc.property(
        fc.integer({ min: utc("1990-01-01T00:00:00Z"), max: utc("2100-01-01T00:00:00Z") }),
        fc.constantFrom(...periods),
        (now, period) => {
          const { start, end } = periodRange(choice(period), now);
          expect((start ?? 0) % HOUR).toBe(0);
          expect((end ?? 0) % HOUR).toBe(0);
          expect(start).toBeLessThanOrEqual(now);
          expect(end).toBeGreaterThan(now);
        },
      ),
    );
  });
});

describe("reading the period from the URL", () => {
  it("opens on All Time and reads every listed period", () => {
    expect(read("")).toEqual({ ok: true, choice: choice("all") });
    expect(read("period=")).toEqual({ ok: true, choice: choice("all") });
    for (const period of ["all", "today", "week", "month", "ytd"] as const) {
      expect(read(`period=${period}`)).toEqual({ ok: true, choice: choice(period) });
    }
  });

  it("ignores from and to outside a custom range, even broken ones", () => {
    expect(read("period=month&from=nonsense&to=2026-01-01")).toEqual({
      ok: true,
      choice: choice("month"),
    });
  });

  it("reads a custom range; blank sides are open", () => {
    expect(read("period=custom&from=2026-01-01&to=2026-01-31")).toEqual({
      ok: true,
      choice: choice("custom", "2026-01-01", "2026-01-31"),
    });
    expect(read("period=custom&from=&to=2026-01-31")).toEqual({
      ok: true,
      choice: choice("custom", null, "2026-01-31"),
    });
    expect(read("period=custom&from=2026-01-01&to=2026-01-01").ok).toBe(true);
  });

  it("refuses a range that ends before it starts, with the message on `to`", () => {
    const reading = read("period=custom&from=2026-02-01&to=2026-01-31");
    expect(reading).toEqual({
      ok: false,
      errors: { to: [PERIOD_MESSAGES.order] },
      raw: { period: "custom", from: "2026-02-01", to: "2026-01-31" },
    });
  });

  it("refuses dates that are not calendar days, and unknown periods", () => {
    for (const bad of [
      "2026-02-30",
      "2026-1-05",
      "1899-12-31",
      "+02026-01-01",
      "tomorrow",
      "٢٠٢٦-٠١-٠١",
    ]) {
      const reading = read(`period=custom&from=${encodeURIComponent(bad)}`);
      expect(reading.ok, bad).toBe(false);
      if (!reading.ok) expect(reading.errors.from).toEqual([PERIOD_MESSAGES.date]);
    }
    const unknown = read("period=decade");
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.errors.period).toEqual([PERIOD_MESSAGES.period]);
    expect(isStudioDay("2028-02-29")).toBe(true);
    expect(isStudioDay("2027-02-29")).toBe(false);
    // The last day accepted still has a next day the period can end on.
    const last = read("period=custom&from=2999-12-31&to=2999-12-31");
    expect(last.ok && periodRange(last.choice, 0).end).toBe(utc("3000-01-01T05:00:00Z"));
  });

  it("writes a period back as query parameters and a file name", () => {
    expect(periodParams(choice("month")).toString()).toBe("period=month");
    expect(periodParams(choice("custom", "2026-01-01", null)).toString()).toBe(
      "period=custom&from=2026-01-01",
    );
    expect(periodSlug(choice("ytd"))).toBe("ytd");
    expect(periodSlug(choice("custom", "2026-01-01", "2026-01-31"))).toBe(
      "custom-2026-01-01-to-2026-01-31",
    );
    expect(periodSlug(choice("custom", null, null))).toBe("custom-start-to-now");
  });
});
