import { describe, expect, it } from "vitest";
import {
  joinRefusal,
  sameRange,
  tooManyWaitlistMessage,
  WAITLIST_MESSAGES,
} from "#app/domain/waitlist";

describe("joinRefusal", () => {
  const base = {
    startProblem: "taken" as const,
    ownBooking: false,
    duplicate: false,
    openEntries: 0,
    max: 5,
  };

  it("lets a customer wait for a taken range under the limit", () => {
    expect(joinRefusal(base)).toBeNull();
    expect(joinRefusal({ ...base, openEntries: 4 })).toBeNull();
  });

  it("refuses a free range: book it instead", () => {
    expect(joinRefusal({ ...base, startProblem: null })).toEqual({
      kind: "range-free",
      message: WAITLIST_MESSAGES.notTaken,
    });
  });

  it("refuses a start that could not be booked even if it freed", () => {
    expect(joinRefusal({ ...base, startProblem: "too-soon" })?.kind).toBe("start-refused");
    expect(joinRefusal({ ...base, startProblem: "skipped" })?.kind).toBe("start-refused");
  });

  it("refuses a range the customer's own live booking takes, before the other checks", () => {
    expect(joinRefusal({ ...base, ownBooking: true })).toEqual({
      kind: "own-booking",
      message: WAITLIST_MESSAGES.ownBooking,
    });
    expect(joinRefusal({ ...base, ownBooking: true, duplicate: true, openEntries: 5 })?.kind).toBe(
      "own-booking",
    );
    // A start that could not be booked anyway says so first.
    expect(joinRefusal({ ...base, ownBooking: true, startProblem: "too-soon" })?.kind).toBe(
      "start-refused",
    );
  });

  it("refuses the customer's own open entry twice", () => {
    expect(joinRefusal({ ...base, duplicate: true })).toEqual({
      kind: "already-waiting",
      message: WAITLIST_MESSAGES.duplicate,
    });
  });

  it("refuses past MAX_WAITLIST open entries", () => {
    expect(joinRefusal({ ...base, openEntries: 5 })).toEqual({
      kind: "waitlist-full",
      message:
        "You already have 5 open waitlist entries. Please remove one before joining another.",
    });
    expect(tooManyWaitlistMessage(1)).toBe(
      "You already have one open waitlist entry. Please remove one before joining another.",
    );
  });
});

describe("sameRange", () => {
  const range = { recordingDate: "2027-01-05", recordingTime: "10:00", hoursNeeded: 2 };
  it("is the same date, start and hours", () => {
    expect(sameRange(range, { ...range })).toBe(true);
    expect(sameRange(range, { ...range, hoursNeeded: 3 })).toBe(false);
    expect(sameRange(range, { ...range, recordingTime: "11:00" })).toBe(false);
    expect(sameRange(range, { ...range, recordingDate: "2027-01-06" })).toBe(false);
  });
});
