import { describe, expect, it } from "vitest";
import { COUPON_MESSAGES, type CouponRecord, couponProblem, normalizeCouponCode } from "./coupons";
import { studioDateOf } from "./studio-time";

const TODAY = "2026-06-15";

const coupon = (overrides: Partial<CouponRecord> = {}): CouponRecord => ({
  code: "SAVE10",
  type: "PERCENTAGE",
  value: 10,
  isActive: true,
  maxUses: 5,
  currentUses: 0,
  expiryDate: "2099-12-31",
  ...overrides,
});

describe("COUPON_MESSAGES", () => {
  it("use the spec's texts for a missing code and an unknown coupon", () => {
    expect(COUPON_MESSAGES.required).toBe("Please enter a coupon code");
    expect(COUPON_MESSAGES.notFound).toBe("This coupon is invalid or has expired.");
  });
});

describe("couponProblem", () => {
  it("accepts an active coupon with uses left before its expiry day", () => {
    expect(couponProblem(coupon(), TODAY)).toBeNull();
    expect(couponProblem(coupon({ type: "FIXED_AMOUNT", value: 2500 }), TODAY)).toBeNull();
  });

  it("refuses an unknown coupon", () => {
    expect(couponProblem(undefined, TODAY)).toBe(COUPON_MESSAGES.notFound);
  });

  it("refuses an inactive coupon", () => {
    expect(couponProblem(coupon({ isActive: false }), TODAY)).toBe(COUPON_MESSAGES.inactive);
    expect(COUPON_MESSAGES.inactive).toBe("This coupon is no longer active.");
  });

  describe("expiry", () => {
    it("is valid through the end of its expiry day", () => {
      expect(couponProblem(coupon({ expiryDate: TODAY }), TODAY)).toBeNull();
      expect(couponProblem(coupon({ expiryDate: "2026-06-16" }), TODAY)).toBeNull();
    });

    it("is expired from the day after", () => {
      expect(couponProblem(coupon({ expiryDate: "2026-06-14" }), TODAY)).toBe(
        COUPON_MESSAGES.expired,
      );
      expect(couponProblem(coupon({ expiryDate: "2020-01-01" }), TODAY)).toBe(
        COUPON_MESSAGES.expired,
      );
      expect(COUPON_MESSAGES.expired).toBe("This coupon has expired.");
    });

    it("compares across month and year ends", () => {
      expect(couponProblem(coupon({ expiryDate: "2026-05-31" }), "2026-06-01")).toBe(
        COUPON_MESSAGES.expired,
      );
      expect(couponProblem(coupon({ expiryDate: "2026-12-31" }), "2027-01-01")).toBe(
        COUPON_MESSAGES.expired,
      );
      expect(couponProblem(coupon({ expiryDate: "2026-12-31" }), "2026-12-31")).toBeNull();
      // The spec's default expiry.
      expect(couponProblem(coupon({ expiryDate: "2099-12-31" }), "2099-12-31")).toBeNull();
      expect(couponProblem(coupon({ expiryDate: "2099-12-31" }), "2100-01-01")).toBe(
        COUPON_MESSAGES.expired,
      );
    });

    it("counts the day in studio time: late evening in Atlanta is still the expiry day", () => {
      // 03:30Z on 16 June is 23:30 on 15 June in Atlanta.
      const today = studioDateOf(Date.UTC(2026, 5, 16, 3, 30));
      expect(today).toBe("2026-06-15");
      expect(couponProblem(coupon({ expiryDate: "2026-06-15" }), today)).toBeNull();
      const nextMorning = studioDateOf(Date.UTC(2026, 5, 16, 4, 0));
      expect(couponProblem(coupon({ expiryDate: "2026-06-15" }), nextMorning)).toBe(
        COUPON_MESSAGES.expired,
      );
    });
  });

  describe("uses", () => {
    it("allows the last remaining use", () => {
      expect(couponProblem(coupon({ maxUses: 5, currentUses: 4 }), TODAY)).toBeNull();
      expect(couponProblem(coupon({ maxUses: 1, currentUses: 0 }), TODAY)).toBeNull();
    });

    it("refuses a coupon that has reached its limit", () => {
      expect(couponProblem(coupon({ maxUses: 5, currentUses: 5 }), TODAY)).toBe(
        COUPON_MESSAGES.usedUp,
      );
      expect(couponProblem(coupon({ maxUses: 1, currentUses: 1 }), TODAY)).toBe(
        COUPON_MESSAGES.usedUp,
      );
      expect(couponProblem(coupon({ maxUses: 5, currentUses: 9 }), TODAY)).toBe(
        COUPON_MESSAGES.usedUp,
      );
      expect(COUPON_MESSAGES.usedUp).toBe("This coupon has reached its usage limit.");
    });

    it("treats maxUses 0 as unlimited", () => {
      expect(couponProblem(coupon({ maxUses: 0, currentUses: 0 }), TODAY)).toBeNull();
      expect(couponProblem(coupon({ maxUses: 0, currentUses: 1 }), TODAY)).toBeNull();
      expect(couponProblem(coupon({ maxUses: 0, currentUses: 100_000 }), TODAY)).toBeNull();
    });
  });

  it("reports one problem, inactive before expired before used up", () => {
    const everythingWrong = coupon({
      isActive: false,
      expiryDate: "2026-01-01",
      maxUses: 1,
      currentUses: 1,
    });
    expect(couponProblem(everythingWrong, TODAY)).toBe(COUPON_MESSAGES.inactive);
    expect(couponProblem({ ...everythingWrong, isActive: true }, TODAY)).toBe(
      COUPON_MESSAGES.expired,
    );
  });
});

describe("normalizeCouponCode", () => {
  it.each([
    ["save10", "SAVE10"],
    ["Save10", "SAVE10"],
    ["  save10\t", "SAVE10"],
    ["SAVE10", "SAVE10"],
    ["free-100", "FREE-100"],
    ["", ""],
  ])("normalizes %o to %o", (input, expected) => {
    expect(normalizeCouponCode(input)).toBe(expected);
  });

  it("makes codes that differ only in case and surrounding blanks equal", () => {
    expect(normalizeCouponCode(" summer ")).toBe(normalizeCouponCode("SUMMER"));
  });
});
