import { describe, expect, it } from "vitest";
import type { BookingClaim } from "#app/domain/booking-claim";
import type { BookingStatus } from "#app/domain/booking-status";
import {
  asSweptAt,
  HOLD_EXPIRED_REASON,
  holdExpired,
  holdRanOut,
  keepsSlot,
} from "#app/domain/holds";

const NOW = 1_000_000;

function booking(
  status: BookingStatus,
  holdExpiresAt: number | null,
  claim: BookingClaim | null = null,
) {
  return { status, holdExpiresAt, claim, cancellationReason: null, cancelledAt: null };
}

describe("a hold's time", () => {
  it("runs out at its instant, not a millisecond later", () => {
    expect(holdRanOut(booking("PENDING_PAYMENT", NOW + 1), NOW)).toBe(false);
    expect(holdRanOut(booking("PENDING_PAYMENT", NOW), NOW)).toBe(true);
    expect(holdRanOut(booking("PENDING_PAYMENT", NOW - 1), NOW)).toBe(true);
  });

  it("has run out for an unpaid booking with no hold at all", () => {
    expect(holdRanOut(booking("PENDING_PAYMENT", null), NOW)).toBe(true);
  });

  it("means nothing once paid or cancelled", () => {
    for (const status of ["PENDING", "CONFIRMED", "COMPLETED", "CANCELLED"] as const) {
      expect(holdRanOut(booking(status, NOW - 1), NOW)).toBe(false);
    }
  });
});

describe("an expired hold (what the sweep cancels)", () => {
  it("is one that ran out and no workflow holds", () => {
    expect(holdExpired(booking("PENDING_PAYMENT", NOW), NOW)).toBe(true);
    expect(holdExpired(booking("PENDING_PAYMENT", NOW, "CHECKOUT_OPEN"), NOW)).toBe(false);
    expect(holdExpired(booking("PENDING_PAYMENT", NOW, "CANCEL_BY_CUSTOMER"), NOW)).toBe(false);
    expect(holdExpired(booking("PENDING_PAYMENT", NOW + 1), NOW)).toBe(false);
  });

  it("frees its slot; a claimed one, a live one and a paid one keep theirs", () => {
    expect(keepsSlot(booking("PENDING_PAYMENT", NOW), NOW)).toBe(false);
    expect(keepsSlot(booking("PENDING_PAYMENT", NOW, "CHECKOUT_OPEN"), NOW)).toBe(true);
    expect(keepsSlot(booking("PENDING_PAYMENT", NOW + 1), NOW)).toBe(true);
    expect(keepsSlot(booking("CONFIRMED", null), NOW)).toBe(true);
    expect(keepsSlot(booking("CANCELLED", null), NOW)).toBe(false);
  });
});

describe("asSweptAt", () => {
  it("reads an expired hold as the sweep leaves its row", () => {
    const row = { ...booking("PENDING_PAYMENT", NOW - 5), id: 7, totalCost: 400 };
    expect(asSweptAt(row, NOW)).toEqual({
      ...row,
      status: "CANCELLED",
      cancellationReason: HOLD_EXPIRED_REASON,
      cancelledAt: NOW,
      holdExpiresAt: null,
    });
  });

  it("gives back any other booking as it is", () => {
    for (const row of [
      booking("PENDING_PAYMENT", NOW + 1),
      booking("PENDING_PAYMENT", NOW, "CHECKOUT_OPEN"),
      booking("CONFIRMED", null),
      booking("CANCELLED", null),
    ]) {
      expect(asSweptAt(row, NOW)).toBe(row);
    }
  });
});
