import { describe, expect, it } from "vitest";
import {
  horizonProblem,
  lastBookableDate,
  tooManyUnpaidHolds,
  unpaidHoldsMessage,
} from "#app/domain/booking-limits";

describe("booking horizon", () => {
  it("allows the day exactly at the horizon and refuses the day after", () => {
    expect(lastBookableDate("2026-11-25", 365)).toBe("2027-11-25");
    expect(horizonProblem("2027-11-25", "2026-11-25", 365)).toBeNull();
    expect(horizonProblem("2027-11-26", "2026-11-25", 365)).toBe(
      "Sessions can be booked up to 2027-11-25. Please choose an earlier date.",
    );
  });

  it("counts calendar days across a leap day and the clock changes", () => {
    expect(lastBookableDate("2028-02-28", 1)).toBe("2028-02-29");
    expect(lastBookableDate("2027-03-13", 1)).toBe("2027-03-14");
    expect(lastBookableDate("2027-11-06", 1)).toBe("2027-11-07");
  });

  it("refuses year 9999 with the default horizon", () => {
    expect(horizonProblem("9999-12-30", "2026-11-25", 365)).not.toBeNull();
  });
});

describe("unpaid holds cap", () => {
  it("allows a booking at N-1 open holds and refuses at N", () => {
    expect(tooManyUnpaidHolds(0, 2)).toBe(false);
    expect(tooManyUnpaidHolds(1, 2)).toBe(false);
    expect(tooManyUnpaidHolds(2, 2)).toBe(true);
    expect(tooManyUnpaidHolds(3, 2)).toBe(true);
  });

  it("says what to do", () => {
    expect(unpaidHoldsMessage(2)).toBe(
      "You already have 2 unpaid bookings waiting for payment. Please pay for or cancel one of them before booking another session.",
    );
    expect(unpaidHoldsMessage(1)).toContain("one unpaid booking");
  });
});
