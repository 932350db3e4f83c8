import { describe, expect, it } from "vitest";
import {
  addStudioDays,
  isStudioWallTime,
  STUDIO_TIME_ZONE,
  studioDateOf,
  studioInstant,
  studioSession,
  studioTimeOf,
} from "#app/domain/studio-time";

const utc = (iso: string) => Date.parse(iso);
const HOUR = 60 * 60 * 1000;

// The expectations are UTC instants, so they hold in any process zone (run under
// TZ=UTC and TZ=Pacific/Auckland).
describe("studio time", () => {
  it("is Atlanta's zone", () => {
    expect(STUDIO_TIME_ZONE).toBe("America/New_York");
  });

  describe("studioInstant", () => {
    it("reads winter and summer wall time with the right offset", () => {
      expect(studioInstant("2026-01-15", "10:00")).toBe(utc("2026-01-15T15:00:00Z"));
      expect(studioInstant("2026-07-15", "10:00")).toBe(utc("2026-07-15T14:00:00Z"));
    });

    it("handles the spring-forward day 2026-03-08", () => {
      expect(studioInstant("2026-03-08", "00:00")).toBe(utc("2026-03-08T05:00:00Z"));
      expect(studioInstant("2026-03-08", "01:00")).toBe(utc("2026-03-08T06:00:00Z"));
      expect(studioInstant("2026-03-08", "03:00")).toBe(utc("2026-03-08T07:00:00Z"));
      expect(studioInstant("2026-03-08", "12:00")).toBe(utc("2026-03-08T16:00:00Z"));
      // The day is 23 hours long.
      expect(studioInstant("2026-03-09", "00:00") - studioInstant("2026-03-08", "00:00")).toBe(
        23 * HOUR,
      );
    });

    it("moves a skipped spring-forward time forward by the gap", () => {
      expect(studioInstant("2026-03-08", "02:00")).toBe(utc("2026-03-08T07:00:00Z"));
      expect(studioInstant("2026-03-08", "02:30")).toBe(utc("2026-03-08T07:30:00Z"));
      expect(isStudioWallTime("2026-03-08", "02:00")).toBe(false);
      expect(isStudioWallTime("2026-03-08", "02:30")).toBe(false);
      expect(isStudioWallTime("2026-03-08", "03:00")).toBe(true);
      expect(isStudioWallTime("2026-03-09", "02:00")).toBe(true);
    });

    it("handles the fall-back day 2026-11-01", () => {
      expect(studioInstant("2026-11-01", "00:00")).toBe(utc("2026-11-01T04:00:00Z"));
      // 01:30 happens twice; the first (daylight) occurrence is used.
      expect(studioInstant("2026-11-01", "01:30")).toBe(utc("2026-11-01T05:30:00Z"));
      expect(studioInstant("2026-11-01", "02:00")).toBe(utc("2026-11-01T07:00:00Z"));
      expect(studioInstant("2026-11-01", "12:00")).toBe(utc("2026-11-01T17:00:00Z"));
      // The day is 25 hours long.
      expect(studioInstant("2026-11-02", "00:00") - studioInstant("2026-11-01", "00:00")).toBe(
        25 * HOUR,
      );
      expect(isStudioWallTime("2026-11-01", "01:30")).toBe(true);
    });

    it("rejects malformed dates and times", () => {
      expect(() => studioInstant("2026-3-8", "10:00")).toThrow(RangeError);
      expect(() => studioInstant("2026-02-30", "10:00")).toThrow(RangeError);
      expect(() => studioInstant("2026-03-08", "24:00")).toThrow(RangeError);
      expect(() => studioInstant("2026-03-08", "10:60")).toThrow(RangeError);
      expect(() => studioInstant("2026-03-08", "10")).toThrow(RangeError);
    });
  });

  describe("studioDateOf and studioTimeOf", () => {
    it("give the studio's calendar day, not UTC's or the server's", () => {
      // 03:30Z is still the evening before in Atlanta.
      expect(studioDateOf(utc("2026-06-02T03:30:00Z"))).toBe("2026-06-01");
      expect(studioTimeOf(utc("2026-06-02T03:30:00Z"))).toBe("23:30");
      expect(studioDateOf(utc("2026-06-02T04:00:00Z"))).toBe("2026-06-02");
      expect(studioTimeOf(utc("2026-06-02T04:00:00Z"))).toBe("00:00");
    });

    it("round-trip through studioInstant on both daylight-saving days", () => {
      for (const date of ["2026-03-08", "2026-11-01"]) {
        for (const time of ["00:00", "01:00", "03:00", "12:00", "23:00"]) {
          const instant = studioInstant(date, time);
          expect(studioDateOf(instant)).toBe(date);
          expect(studioTimeOf(instant)).toBe(time);
        }
      }
    });
  });

  it("round-trips every hour of 2026 except the repeated one", () => {
    const repeated = utc("2026-11-01T06:00:00Z"); // 01:00 EST, the second 01:00
    for (let instant = utc("2026-01-01T05:00:00Z"); instant < utc("2027-01-01T05:00:00Z"); ) {
      const back = studioInstant(studioDateOf(instant), studioTimeOf(instant));
      expect(back).toBe(instant === repeated ? instant - HOUR : instant);
      instant += HOUR;
    }
  });

  describe("addStudioDays", () => {
    it("adds and subtracts calendar days across months, years and DST", () => {
      expect(addStudioDays("2026-03-07", 1)).toBe("2026-03-08");
      expect(addStudioDays("2026-03-08", 1)).toBe("2026-03-09");
      expect(addStudioDays("2026-10-31", 2)).toBe("2026-11-02");
      expect(addStudioDays("2026-12-31", 1)).toBe("2027-01-01");
      expect(addStudioDays("2028-02-28", 1)).toBe("2028-02-29");
      expect(addStudioDays("2026-03-01", -1)).toBe("2026-02-28");
      expect(addStudioDays("2026-02-10", 30)).toBe("2026-03-12");
      expect(addStudioDays("2026-03-08", 0)).toBe("2026-03-08");
    });
  });

  describe("sessions", () => {
    it("crosses midnight into the next studio day", () => {
      const { startsAt, endsAt } = studioSession("2026-06-01", "22:00", 4);
      expect(startsAt).toBe(utc("2026-06-02T02:00:00Z"));
      expect(endsAt).toBe(utc("2026-06-02T06:00:00Z"));
      expect(studioDateOf(startsAt)).toBe("2026-06-01");
      expect(studioDateOf(endsAt)).toBe("2026-06-02");
      expect(studioTimeOf(endsAt)).toBe("02:00");
    });

    it("counts elapsed hours over the spring-forward night", () => {
      const { startsAt, endsAt } = studioSession("2026-03-07", "23:00", 5);
      expect(endsAt - startsAt).toBe(5 * HOUR);
      expect(studioDateOf(endsAt)).toBe("2026-03-08");
      // 23:00 EST + 5 h = 05:00 EDT: the clock skipped 02:00-03:00.
      expect(studioTimeOf(endsAt)).toBe("05:00");
    });

    it("counts elapsed hours over the fall-back night", () => {
      const { startsAt, endsAt } = studioSession("2026-10-31", "23:00", 4);
      expect(endsAt - startsAt).toBe(4 * HOUR);
      // 23:00 EDT + 4 h = 02:00 EST: the clock showed 01:00-02:00 twice.
      expect(studioDateOf(endsAt)).toBe("2026-11-01");
      expect(studioTimeOf(endsAt)).toBe("02:00");
    });
  });
});
