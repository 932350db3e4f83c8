import { describe, expect, it } from "vitest";
import { claimProblem } from "#app/domain/booking-claim";
import { HOLD_EXPIRED_REASON } from "#app/domain/holds";
import {
  ALREADY_PAID_MESSAGE,
  checkoutKey,
  DRAW_GONE,
  HOLD_EXPIRED_MESSAGE,
  holdLapsed,
  isPayable,
  judgePayment,
  notPayableMessage,
  SLOT_TAKEN_SINCE,
} from "#app/domain/payments";

const NOW = 1_000_000;

type Row = Parameters<typeof judgePayment>[0];
const unpaid = (overrides: Partial<Row> = {}): Row => ({
  status: "PENDING_PAYMENT",
  totalCost: 400,
  holdExpiresAt: NOW + 60_000,
  claim: null,
  cancellationReason: null,
  retainerHoursDrawn: 0,
  ...overrides,
});
const swept = (overrides: Partial<Row> = {}) =>
  unpaid({
    status: "CANCELLED",
    holdExpiresAt: null,
    cancellationReason: HOLD_EXPIRED_REASON,
    ...overrides,
  });
const pay = (overrides: Partial<Parameters<typeof judgePayment>[1]> = {}) => ({
  amount: 400,
  now: NOW,
  slotFree: true,
  refuseClaimed: true,
  ...overrides,
});

describe("isPayable", () => {
  it("is an unpaid, priced booking with its hold running, open to a checkout being opened", () => {
    expect(isPayable(unpaid(), NOW)).toBe(true);
    expect(isPayable(unpaid({ claim: "CHECKOUT_OPEN" }), NOW)).toBe(true);
  });

  it("is not once the hold's instant is reached, for $0, a claim or any other status", () => {
    expect(isPayable(unpaid({ holdExpiresAt: NOW }), NOW)).toBe(false);
    expect(isPayable(unpaid({ totalCost: 0 }), NOW)).toBe(false);
    expect(isPayable(unpaid({ claim: "CANCEL_BY_CUSTOMER" }), NOW)).toBe(false);
    expect(isPayable(unpaid({ claim: "CHECKOUT_CLOSE" }), NOW)).toBe(false);
    expect(isPayable(unpaid({ status: "PENDING" }), NOW)).toBe(false);
    expect(isPayable(swept(), NOW)).toBe(false);
  });
});

describe("notPayableMessage", () => {
  it("says the hold ran out, swept or not", () => {
    expect(notPayableMessage(unpaid({ holdExpiresAt: NOW }), NOW)).toBe(HOLD_EXPIRED_MESSAGE);
    expect(notPayableMessage(swept(), NOW)).toBe(HOLD_EXPIRED_MESSAGE);
  });

  it("names a cancellation, a free booking, a claim and a paid one", () => {
    expect(notPayableMessage(swept({ cancellationReason: "Cancelled by customer" }), NOW)).toBe(
      "This booking was cancelled.",
    );
    expect(notPayableMessage(unpaid({ totalCost: 0 }), NOW)).toMatch(/free/);
    expect(notPayableMessage(unpaid({ claim: "CANCEL_BY_STUDIO" }), NOW)).toBe(
      claimProblem("CANCEL_BY_STUDIO"),
    );
    expect(notPayableMessage(unpaid({ status: "CONFIRMED" }), NOW)).toBe(ALREADY_PAID_MESSAGE);
  });
});

describe("holdLapsed", () => {
  it("is a run-out hold, swept or not; never a live, paid or otherwise cancelled one", () => {
    expect(holdLapsed(unpaid({ holdExpiresAt: NOW }), NOW)).toBe(true);
    expect(holdLapsed(unpaid({ holdExpiresAt: NOW, claim: "CHECKOUT_OPEN" }), NOW)).toBe(true);
    expect(holdLapsed(swept(), NOW)).toBe(true);
    expect(holdLapsed(unpaid(), NOW)).toBe(false);
    expect(holdLapsed(unpaid({ status: "PENDING" }), NOW)).toBe(false);
    expect(holdLapsed(swept({ cancellationReason: "Cancelled by customer" }), NOW)).toBe(false);
  });
});

describe("judgePayment", () => {
  it("pays a live hold by card", () => {
    expect(judgePayment(unpaid(), pay())).toEqual({
      ok: true,
      reinstates: false,
      note: "Paid by card",
    });
  });

  it("never takes a different sum, whatever else is wrong", () => {
    const verdict = judgePayment(swept({ retainerHoursDrawn: 2 }), pay({ amount: 399 }));
    expect(verdict).toEqual({
      ok: false,
      reason: "Amount 399 does not match the booking total 400",
    });
  });

  it("refuses a booking that is neither unpaid nor a lapsed hold", () => {
    expect(judgePayment(unpaid({ status: "CONFIRMED" }), pay())).toEqual({
      ok: false,
      reason: "Booking is CONFIRMED",
    });
    const cancelled = swept({ cancellationReason: "Cancelled by customer" });
    expect(judgePayment(cancelled, pay())).toEqual({ ok: false, reason: "Booking is CANCELLED" });
  });

  it("takes a lapsed hold, swept or not, only onto its slot still free (finding 8)", () => {
    const ranOut = unpaid({ holdExpiresAt: NOW });
    expect(judgePayment(ranOut, pay({ slotFree: false }))).toEqual({
      ok: false,
      reason: SLOT_TAKEN_SINCE,
    });
    expect(judgePayment(ranOut, pay())).toMatchObject({ ok: true, reinstates: false });
    expect(judgePayment(swept(), pay({ slotFree: false }))).toMatchObject({ ok: false });
    // A live hold's slot is its own: the caller does not even ask.
    expect(judgePayment(unpaid(), pay({ slotFree: false }))).toMatchObject({ ok: true });
  });

  it("reinstates a swept hold that drew no retainer hours", () => {
    expect(judgePayment(swept(), pay())).toEqual({
      ok: true,
      reinstates: true,
      note: "Paid after the hold ran out; the slot was still free",
    });
    expect(judgePayment(swept({ retainerHoursDrawn: 1 }), pay())).toEqual({
      ok: false,
      reason: DRAW_GONE,
    });
  });

  it("refuses a claimed booking only when asked to (money taken already is recorded)", () => {
    const claimed = unpaid({ claim: "CANCEL_BY_CUSTOMER" });
    expect(judgePayment(claimed, pay())).toEqual({
      ok: false,
      reason: claimProblem("CANCEL_BY_CUSTOMER"),
    });
    expect(judgePayment(claimed, pay({ refuseClaimed: false }))).toMatchObject({ ok: true });
  });

  it("reports a taken slot before a claim", () => {
    const both = unpaid({ holdExpiresAt: NOW, claim: "CHECKOUT_CLOSE" });
    expect(judgePayment(both, pay({ slotFree: false }))).toEqual({
      ok: false,
      reason: SLOT_TAKEN_SINCE,
    });
  });
});

describe("checkoutKey", () => {
  const plan = {
    orderId: 7,
    until: NOW,
    lines: [
      { bookingId: 12, amount: 400 },
      { bookingId: 11, amount: 400 },
    ],
  };

  it("is the same for the same plan, whatever the order of its lines", () => {
    expect(checkoutKey(plan)).toBe(checkoutKey({ ...plan, lines: [...plan.lines].reverse() }));
    expect(checkoutKey(plan)).toBe(`checkout-order-7-${NOW}-11x400.12x400`);
  });

  it("differs when the plan charges other sessions or other sums (finding 11)", () => {
    const keys = [
      checkoutKey(plan),
      checkoutKey({ ...plan, lines: [{ bookingId: 12, amount: 400 }] }),
      checkoutKey({ ...plan, lines: [...plan.lines, { bookingId: 13, amount: 400 }] }),
      checkoutKey({
        ...plan,
        lines: [
          { bookingId: 11, amount: 400 },
          { bookingId: 12, amount: 200 },
        ],
      }),
      checkoutKey({ ...plan, until: NOW + 1 }),
      checkoutKey({ ...plan, orderId: 8 }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
