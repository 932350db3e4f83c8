import { describe, expect, it } from "vitest";
import type { BusyRange } from "#app/domain/availability";
import {
  checkOccurrences,
  couponForSession,
  horizonProblemOf,
  keptDates,
  nearestFreeTimes,
  SERIES_MESSAGES,
  seriesConflicts,
  seriesDates,
} from "#app/domain/series";
import { studioDateOf, studioSession, studioTimeOf } from "#app/domain/studio-time";

const LONG_AGO = Date.parse("2026-01-01T12:00:00Z");
const booking = (date: string, time: string, hours: number): BusyRange => ({
  ...studioSession(date, time, hours),
  kind: "booking",
});

describe("seriesDates", () => {
  it("repeats every 7 or 14 days from the first date", () => {
    expect(seriesDates("2026-06-02", "week", 3)).toEqual([
      "2026-06-02",
      "2026-06-09",
      "2026-06-16",
    ]);
    expect(seriesDates("2026-06-02", "2weeks", 3)).toEqual([
      "2026-06-02",
      "2026-06-16",
      "2026-06-30",
    ]);
  });

  it("crosses months and years", () => {
    expect(seriesDates("2026-12-22", "week", 3)).toEqual([
      "2026-12-22",
      "2026-12-29",
      "2027-01-05",
    ]);
    expect(seriesDates("2028-02-22", "week", 2)).toEqual(["2028-02-22", "2028-02-29"]);
  });

  it("takes 2 to 12 sessions and nothing else", () => {
    expect(seriesDates("2026-06-02", "week", 2)).toHaveLength(2);
    expect(seriesDates("2026-06-02", "week", 12)).toHaveLength(12);
    for (const count of [1, 13, 0, -1, 2.5, Number.NaN]) {
      expect(() => seriesDates("2026-06-02", "week", count)).toThrow(RangeError);
    }
  });

  it("keeps 7 PM at 7 PM across the March clock change (EST to EDT)", () => {
    // 2027-03-14 is the spring-forward Sunday (its 7 PM is already EDT): -5 becomes -4.
    const dates = seriesDates("2027-03-07", "week", 3);
    const starts = dates.map((date) => studioSession(date, "19:00", 2).startsAt);
    expect(starts.map((at) => new Date(at).toISOString())).toEqual([
      "2027-03-08T00:00:00.000Z",
      "2027-03-14T23:00:00.000Z",
      "2027-03-21T23:00:00.000Z",
    ]);
    for (const [i, at] of starts.entries()) {
      expect(studioTimeOf(at)).toBe("19:00");
      expect(studioDateOf(at)).toBe(dates[i]);
    }
  });

  it("keeps 7 PM at 7 PM across the November clock change (EDT to EST)", () => {
    // 2026-11-01 is the fall-back Sunday: the offset goes from -4 to -5.
    const dates = seriesDates("2026-10-25", "2weeks", 2);
    const starts = dates.map((date) => studioSession(date, "19:00", 2).startsAt);
    expect(starts.map((at) => new Date(at).toISOString())).toEqual([
      "2026-10-25T23:00:00.000Z",
      "2026-11-09T00:00:00.000Z",
    ]);
    expect(starts.map(studioTimeOf)).toEqual(["19:00", "19:00"]);
    // 14 days plus the hour given back: the instants are not a whole number of weeks apart.
    expect((starts[1] as number) - (starts[0] as number)).toBe((14 * 24 + 1) * 3_600_000);
  });
});

describe("nearestFreeTimes", () => {
  const options = (free: string[]) =>
    ["08:00", "09:00", "10:00", "11:00", "12:00", "13:00", "14:00", "15:00"].map((time) => ({
      time,
      available: free.includes(time),
    }));

  it("orders free times by distance from the wanted one, the earlier on a tie, 3 at most", () => {
    expect(
      nearestFreeTimes(options(["08:00", "10:00", "12:00", "13:00", "15:00"]), "11:00"),
    ).toEqual(["10:00", "12:00", "13:00"]);
    expect(nearestFreeTimes(options(["08:00", "15:00"]), "12:00")).toEqual(["15:00", "08:00"]);
  });

  it("never offers the wanted time itself, and nothing on a full day", () => {
    expect(nearestFreeTimes(options(["11:00", "14:00"]), "11:00")).toEqual(["14:00"]);
    expect(nearestFreeTimes(options([]), "11:00")).toEqual([]);
  });

  it("takes a limit", () => {
    expect(nearestFreeTimes(options(["08:00", "09:00", "10:00"]), "09:00", 1)).toEqual(["08:00"]);
  });
});

describe("checkOccurrences", () => {
  const dates = ["2026-06-02", "2026-06-09", "2026-06-16"];
  const base = {
    dates,
    time: "19:00",
    hours: 2,
    now: LONG_AGO,
    bufferMinutes: 0,
    lastDate: null,
  };

  it("marks free sessions and, for a taken one, the nearest free times that day", () => {
    const busy = [booking("2026-06-09", "18:00", 4)];
    const checks = checkOccurrences({
      ...base,
      busyOn: (date) => busy.filter((range) => studioDateOf(range.startsAt) === date),
    });
    expect(checks.map((check) => check.problem)).toEqual([null, "taken", null]);
    // 18:00-22:00 is taken: a 2-hour session fits ending by 18:00 (16:00) or from 22:00.
    expect(checks[1]?.alternatives).toEqual(["16:00", "22:00", "15:00"]);
    expect(seriesConflicts(checks)).toEqual([
      { recordingDate: "2026-06-09", alternatives: ["16:00", "22:00", "15:00"] },
    ]);
    expect(checks[0]).toMatchObject({ recordingDate: "2026-06-02", recordingTime: "19:00" });
  });

  it("honours the turnaround buffer around bookings", () => {
    const busy = [booking("2026-06-02", "16:00", 2)];
    const checks = checkOccurrences({ ...base, bufferMinutes: 90, busyOn: () => busy });
    // 16:00-18:00 booked plus 90 minutes' turnaround: 19:00 is too close, 20:00 is not.
    expect(checks[0]?.problem).toBe("taken");
    expect(checks[0]?.alternatives).toEqual(["20:00", "21:00", "22:00"]);
  });

  it("refuses sessions inside 48 hours and past the horizon", () => {
    const now = studioSession("2026-06-01", "12:00", 0).startsAt;
    const checks = checkOccurrences({ ...base, now, lastDate: "2026-06-10", busyOn: () => [] });
    expect(checks.map((check) => check.problem)).toEqual(["too-soon", null, "too-far"]);
    // The whole of that day is inside 48 hours: nothing to offer instead.
    expect(checks[0]?.alternatives).toEqual([]);
    expect(horizonProblemOf(checks, "2026-06-10")).toBe(
      "Sessions can be booked up to 2026-06-10. Please choose an earlier date.",
    );
    expect(horizonProblemOf(checks.slice(0, 2), "2026-06-10")).toBeNull();
  });

  it("refuses a start the clocks skip on the spring-forward day", () => {
    const checks = checkOccurrences({
      ...base,
      dates: ["2027-03-07", "2027-03-14"],
      time: "02:00",
      busyOn: () => [],
    });
    expect(checks.map((check) => check.problem)).toEqual([null, "skipped"]);
    expect(checks[1]?.alternatives).toEqual(["01:00", "03:00", "00:00"]);
  });
});

describe("keptDates", () => {
  const dates = ["2026-06-02", "2026-06-09", "2026-06-16"];

  it("leaves out the dates asked", () => {
    expect(keptDates(dates, [])).toEqual({ dates, problem: null });
    expect(keptDates(dates, ["2026-06-09"])).toEqual({
      dates: ["2026-06-02", "2026-06-16"],
      problem: null,
    });
  });

  it("refuses a date not in the series and fewer than two sessions left", () => {
    expect(keptDates(dates, ["2026-06-03"]).problem).toBe(SERIES_MESSAGES.skip);
    expect(keptDates(dates, ["2026-06-02", "2026-06-09"]).problem).toBe(SERIES_MESSAGES.tooFewLeft);
    expect(keptDates(dates, dates).problem).toBe(SERIES_MESSAGES.tooFewLeft);
  });
});

describe("couponForSession", () => {
  it("takes a percentage off every session and a fixed amount off the first only", () => {
    const percent = { type: "PERCENTAGE", value: 10 };
    const fixed = { type: "FIXED_AMOUNT", value: 5000 };
    expect([0, 1, 2].map((i) => couponForSession(percent, i))).toEqual([percent, percent, percent]);
    expect([0, 1, 2].map((i) => couponForSession(fixed, i))).toEqual([fixed, null, null]);
    expect(couponForSession(null, 0)).toBeNull();
  });
});
