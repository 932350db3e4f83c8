import { describe, expect, it } from "vitest";
import {
  canCancel,
  canReschedule,
  FREE_CHANGE_NOTICE_MS,
  refundQuote,
  studioRefundQuote,
} from "#app/domain/cancellation";
import { studioInstant } from "#app/domain/studio-time";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe("refundQuote", () => {
  const startsAt = studioInstant("2026-12-10", "10:00");

  it("refunds everything at exactly 24 hours and one minute more", () => {
    expect(refundQuote({ startsAt, paid: 400 }, startsAt - DAY, 50)).toEqual({
      kind: "full",
      paid: 400,
      fee: 0,
      refund: 400,
    });
    expect(refundQuote({ startsAt, paid: 400 }, startsAt - DAY - MINUTE, 50).kind).toBe("full");
  });

  it("keeps the fee one minute inside 24 hours", () => {
    expect(refundQuote({ startsAt, paid: 400 }, startsAt - DAY + MINUTE, 50)).toEqual({
      kind: "late",
      paid: 400,
      fee: 200,
      refund: 200,
    });
  });

  it("rounds the fee down, in the customer's favour", () => {
    expect(refundQuote({ startsAt, paid: 999 }, startsAt - MINUTE, 50)).toMatchObject({
      fee: 499,
      refund: 500,
    });
    expect(refundQuote({ startsAt, paid: 1 }, startsAt - MINUTE, 50)).toMatchObject({
      fee: 0,
      refund: 1,
    });
  });

  it("follows the configured fee, from none to all", () => {
    expect(refundQuote({ startsAt, paid: 300 }, startsAt - MINUTE, 0)).toMatchObject({
      fee: 0,
      refund: 300,
    });
    expect(refundQuote({ startsAt, paid: 300 }, startsAt - MINUTE, 100)).toMatchObject({
      fee: 300,
      refund: 0,
    });
  });

  it("charges nothing and refunds nothing when nothing was paid", () => {
    for (const now of [startsAt - 3 * DAY, startsAt - MINUTE]) {
      expect(refundQuote({ startsAt, paid: 0 }, now, 50)).toEqual({
        kind: "unpaid",
        paid: 0,
        fee: 0,
        refund: 0,
      });
    }
  });

  // The line is 24 real hours before the start, not "the same clock time yesterday": on the
  // days the clocks change those differ by an hour.
  it.each([
    ["spring forward", "2027-03-14", "10:00", "2027-03-13"],
    ["fall back", "2026-11-01", "10:00", "2026-10-31"],
  ])("puts the line 24 real hours before the start across %s", (_name, date, time, dayBefore) => {
    const start = studioInstant(date, time);
    const line = start - FREE_CHANGE_NOTICE_MS;
    expect(refundQuote({ startsAt: start, paid: 200 }, line, 50).kind).toBe("full");
    expect(refundQuote({ startsAt: start, paid: 200 }, line + MINUTE, 50).kind).toBe("late");
    // The same wall-clock time the day before is an hour off the line on those days.
    const sameClockYesterday = studioInstant(dayBefore, time);
    expect(Math.abs(sameClockYesterday - line)).toBe(60 * MINUTE);
  });
});

describe("canCancel", () => {
  const startsAt = studioInstant("2026-12-10", "10:00");

  it("allows unpaid, paid and confirmed sessions until they start", () => {
    for (const status of ["PENDING_PAYMENT", "PENDING", "CONFIRMED"] as const) {
      expect(canCancel({ status, startsAt }, startsAt - MINUTE)).toBe(true);
      expect(canCancel({ status, startsAt }, startsAt)).toBe(false);
    }
  });

  it("refuses sessions already recorded, in post-production, completed or cancelled", () => {
    for (const status of ["RECORDED", "POST_PRODUCTION", "COMPLETED", "CANCELLED"] as const) {
      expect(canCancel({ status, startsAt }, startsAt - 5 * DAY)).toBe(false);
    }
  });
});

describe("canReschedule", () => {
  const startsAt = studioInstant("2026-12-10", "10:00");

  it("allows paid and confirmed sessions up to exactly 24 hours ahead", () => {
    for (const status of ["PENDING", "CONFIRMED"] as const) {
      expect(canReschedule({ status, startsAt }, startsAt - DAY)).toBe(true);
      expect(canReschedule({ status, startsAt }, startsAt - DAY + MINUTE)).toBe(false);
    }
  });

  it("refuses unpaid and finished sessions", () => {
    for (const status of ["PENDING_PAYMENT", "RECORDED", "COMPLETED", "CANCELLED"] as const) {
      expect(canReschedule({ status, startsAt }, startsAt - 5 * DAY)).toBe(false);
    }
  });
});

describe("studioRefundQuote", () => {
  it("refunds everything paid, with no fee", () => {
    expect(studioRefundQuote(400)).toEqual({ kind: "full", paid: 400, fee: 0, refund: 400 });
    expect(studioRefundQuote(1)).toEqual({ kind: "full", paid: 1, fee: 0, refund: 1 });
  });

  it("has nothing to refund when nothing (or less) was paid", () => {
    expect(studioRefundQuote(0)).toEqual({ kind: "unpaid", paid: 0, fee: 0, refund: 0 });
    expect(studioRefundQuote(-5)).toEqual({ kind: "unpaid", paid: 0, fee: 0, refund: 0 });
  });
});
