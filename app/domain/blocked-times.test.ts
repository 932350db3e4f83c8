import { describe, expect, it } from "vitest";
import {
  BLOCK_LIMITS,
  BLOCK_MESSAGES,
  blockedTimeSchema,
  blockListParam,
} from "#app/domain/blocked-times";
import { studioInstant } from "#app/domain/studio-time";

const NOW = studioInstant("2027-03-01", "12:00");

const valid = {
  startDate: "2027-03-10",
  startTime: "09:00",
  endDate: "2027-03-10",
  endTime: "17:30",
  reason: "Acoustic panels replaced",
};

const parse = (overrides: Record<string, unknown>, now = NOW) =>
  blockedTimeSchema(now).safeParse({ ...valid, ...overrides });

const errorsOf = (overrides: Record<string, unknown>, now = NOW) =>
  Object.fromEntries(
    (parse(overrides, now).error?.issues ?? []).map((issue) => [
      issue.path.join("."),
      issue.message,
    ]),
  );

describe("blockedTimeSchema", () => {
  it("reads studio wall time into instants and trims the reason", () => {
    const result = parse({ reason: "  Acoustic panels replaced " });
    expect(result.data).toEqual({
      startsAt: studioInstant("2027-03-10", "09:00"),
      endsAt: studioInstant("2027-03-10", "17:30"),
      reason: "Acoustic panels replaced",
    });
    // 09:00 in Atlanta in March before the change is 14:00Z (EST, UTC-5).
    expect(new Date(result.data?.startsAt ?? 0).toISOString()).toBe("2027-03-10T14:00:00.000Z");
  });

  it("accepts the seconds a time input may add, and a range over several days", () => {
    const result = parse({ startTime: "22:00:00", endDate: "2027-03-12", endTime: "06:00" });
    expect(result.data?.startsAt).toBe(studioInstant("2027-03-10", "22:00"));
    expect(result.data?.endsAt).toBe(studioInstant("2027-03-12", "06:00"));
  });

  it("refuses a start or an end in the hour the clocks skip (spring forward)", () => {
    // 2027-03-14: 02:00 EST jumps to 03:00 EDT in Atlanta.
    expect(
      errorsOf({ startDate: "2027-03-14", startTime: "02:30", endDate: "2027-03-14" }),
    ).toEqual({ startTime: BLOCK_MESSAGES.skipped });
    expect(
      errorsOf({
        startDate: "2027-03-13",
        endDate: "2027-03-14",
        endTime: "02:00",
      }),
    ).toEqual({ endTime: BLOCK_MESSAGES.skipped });
    // Either side of the gap is fine, and the block is one real hour long.
    const around = parse({
      startDate: "2027-03-14",
      startTime: "01:30",
      endDate: "2027-03-14",
      endTime: "03:30",
    });
    expect((around.data?.endsAt ?? 0) - (around.data?.startsAt ?? 0)).toBe(60 * 60_000);
  });

  it("takes a repeated autumn time as its first occurrence", () => {
    const result = parse({
      startDate: "2027-11-07",
      startTime: "00:30",
      endDate: "2027-11-07",
      endTime: "01:30",
    });
    expect((result.data?.endsAt ?? 0) - (result.data?.startsAt ?? 0)).toBe(60 * 60_000);
  });

  it("refuses an end before or equal to the start", () => {
    expect(errorsOf({ endTime: "08:00" })).toEqual({ endDate: BLOCK_MESSAGES.order });
    expect(errorsOf({ endTime: "09:00" })).toEqual({ endDate: BLOCK_MESSAGES.order });
    expect(errorsOf({ endDate: "2027-03-09", endTime: "23:00" })).toEqual({
      endDate: BLOCK_MESSAGES.order,
    });
  });

  it("refuses a range that is over, but keeps one that has begun", () => {
    const later = studioInstant("2027-03-10", "18:00");
    expect(errorsOf({}, later)).toEqual({ endDate: BLOCK_MESSAGES.past });
    // Ending exactly now is over too.
    expect(errorsOf({}, studioInstant("2027-03-10", "17:30"))).toEqual({
      endDate: BLOCK_MESSAGES.past,
    });
    expect(parse({}, studioInstant("2027-03-10", "12:00")).success).toBe(true);
  });

  it("reads a clock at each check when built with one", () => {
    let clock = studioInstant("2027-03-10", "12:00");
    const kept = blockedTimeSchema(() => clock);
    expect(kept.safeParse(valid).success).toBe(true);
    clock = studioInstant("2027-03-10", "18:00");
    expect(kept.safeParse(valid).success).toBe(false);
  });

  it("refuses a block longer than a year", () => {
    expect(errorsOf({ endDate: "2028-03-11" })).toEqual({ endDate: BLOCK_MESSAGES.tooLong });
    expect(parse({ endDate: "2028-03-10", endTime: "09:00" }).success).toBe(true);
  });

  it.each([
    ["startDate", "", BLOCK_MESSAGES.startDate],
    ["startDate", "2027-02-30", BLOCK_MESSAGES.startDate],
    ["startDate", "2027-13-01", BLOCK_MESSAGES.startDate],
    ["startDate", "0027-03-10", BLOCK_MESSAGES.startDate],
    ["startDate", "10/03/2027", BLOCK_MESSAGES.startDate],
    ["endDate", undefined, BLOCK_MESSAGES.endDate],
    ["startTime", "24:00", BLOCK_MESSAGES.startTime],
    ["startTime", "9:00", BLOCK_MESSAGES.startTime],
    ["endTime", "17:30:15", BLOCK_MESSAGES.endTime],
    ["reason", "   ", BLOCK_MESSAGES.reason],
    ["reason", undefined, BLOCK_MESSAGES.reason],
    ["reason", "x".repeat(BLOCK_LIMITS.reasonMax + 1), BLOCK_MESSAGES.reasonLong],
  ])("refuses %s %o with %o", (field, value, message) => {
    expect(errorsOf({ [field]: value })).toEqual({ [field]: message });
  });

  it("accepts a reason of the maximum length", () => {
    expect(parse({ reason: "x".repeat(BLOCK_LIMITS.reasonMax) }).success).toBe(true);
  });
});

describe("blockListParam", () => {
  it("reads past, and anything else as upcoming", () => {
    expect(blockListParam("past")).toBe("past");
    expect(blockListParam("upcoming")).toBe("upcoming");
    expect(blockListParam(null)).toBe("upcoming");
    expect(blockListParam("PAST")).toBe("upcoming");
  });
});
