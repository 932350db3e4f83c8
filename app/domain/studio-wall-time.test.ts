import { describe, expect, it } from "vitest";
import { studioDateOf, studioTimeOf } from "#app/domain/studio-time";
import { studioWallTimes } from "#app/domain/studio-wall-time";

const utc = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;

describe("studioWallTimes", () => {
  it("reads winter and summer instants in Atlanta's time", () => {
    const wall = studioWallTimes();
    expect(wall(utc("2026-01-15T15:00:00Z"))).toBe("2026-01-15 10:00");
    expect(wall(utc("2026-07-15T14:00:00Z"))).toBe("2026-07-15 10:00");
    expect(wall(utc("2027-01-01T04:59:00Z"))).toBe("2026-12-31 23:59");
    expect(wall(utc("2027-01-01T05:00:00Z"))).toBe("2027-01-01 00:00");
  });

  it("switches exactly at the daylight-saving changes", () => {
    const wall = studioWallTimes();
    expect(wall(utc("2026-03-08T06:59:00Z"))).toBe("2026-03-08 01:59");
    expect(wall(utc("2026-03-08T07:00:00Z"))).toBe("2026-03-08 03:00");
    expect(wall(utc("2026-11-01T05:59:00Z"))).toBe("2026-11-01 01:59");
    expect(wall(utc("2026-11-01T06:00:00Z"))).toBe("2026-11-01 01:00");
  });

  it("agrees with studioDateOf and studioTimeOf minute by minute around both changes", () => {
    const wall = studioWallTimes();
    for (const start of ["2026-03-08T04:00:00Z", "2026-11-01T03:00:00Z", "2031-03-09T04:00:00Z"]) {
      for (let minute = 0; minute < 6 * 60; minute += 7) {
        const instant = utc(start) + minute * MINUTE;
        expect(wall(instant)).toBe(`${studioDateOf(instant)} ${studioTimeOf(instant)}`);
      }
    }
  });
});
