import { describe, expect, it } from "vitest";
import { sessionsAsked } from "#app/domain/series-form";

describe("sessionsAsked", () => {
  it("is one for a single booking, else the series' sessions less those left out", () => {
    expect(sessionsAsked(undefined)).toBe(1);
    expect(sessionsAsked({ every: "week", count: 12, skip: [] })).toBe(12);
    expect(sessionsAsked({ every: "2weeks", count: 5, skip: ["2027-01-05", "2027-01-19"] })).toBe(
      3,
    );
    // Never below one, whatever is left out (such a booking is refused anyway).
    expect(sessionsAsked({ every: "week", count: 2, skip: ["2027-01-05", "2027-01-12"] })).toBe(1);
  });
});
