import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  COUPON_FORM_ERRORS,
  COUPON_MESSAGES,
  type CouponInput,
  type CouponRecord,
  couponDescription,
  couponProblem,
  couponRefusalMessage,
  couponValueFromAmount,
  couponValueProblem,
  duplicateCouponMessage,
  expiryDateFrom,
  formatCouponDiscount,
  formatExpiry,
  maxUsesFrom,
  NO_EXPIRY,
  normalizeCouponCode,
  parseCouponForm,
  couponFormSchema,
  couponRefusal,
} from "#app/domain/coupons";
import { studioDateOf } from "#app/domain/studio-time";

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
  it("use the texts of docs/product.md 'Validation' for a missing code and an unusable coupon", () => {
    expect(COUPON_MESSAGES.required).toBe("Please enter a coupon code");
    expect(COUPON_MESSAGES.unusable).toBe("This coupon is invalid or has expired.");
  });
});

describe("couponRefusalMessage", () => {
  it("tells customers one message for every reason, so a code's state cannot be probed", () => {
    for (const reason of ["notFound", "inactive", "expired", "usedUp"] as const) {
      expect(couponRefusalMessage(reason)).toBe("This coupon is invalid or has expired.");
    }
  });

  it("is the message for each real refusal", () => {
    const cases = [
      undefined,
      coupon({ isActive: false }),
      coupon({ expiryDate: "2020-01-01" }),
      coupon({ maxUses: 1, currentUses: 1 }),
    ];
    for (const candidate of cases) {
      const reason = couponProblem(candidate, TODAY);
      expect(reason).not.toBeNull();
      if (reason) expect(couponRefusalMessage(reason)).toBe(COUPON_MESSAGES.unusable);
    }
  });
});

describe("couponProblem", () => {
  it("accepts an active coupon with uses left before its expiry day", () => {
    expect(couponProblem(coupon(), TODAY)).toBeNull();
    expect(couponProblem(coupon({ type: "FIXED_AMOUNT", value: 2500 }), TODAY)).toBeNull();
  });

  it("refuses an unknown coupon", () => {
    expect(couponProblem(undefined, TODAY)).toBe("notFound");
  });

  it("refuses an inactive coupon", () => {
    expect(couponProblem(coupon({ isActive: false }), TODAY)).toBe("inactive");
  });

  describe("expiry", () => {
    it("is valid through the end of its expiry day", () => {
      expect(couponProblem(coupon({ expiryDate: TODAY }), TODAY)).toBeNull();
      expect(couponProblem(coupon({ expiryDate: "2026-06-16" }), TODAY)).toBeNull();
    });

    it("is expired from the day after", () => {
      expect(couponProblem(coupon({ expiryDate: "2026-06-14" }), TODAY)).toBe("expired");
      expect(couponProblem(coupon({ expiryDate: "2020-01-01" }), TODAY)).toBe("expired");
    });

    it("compares across month and year ends", () => {
      expect(couponProblem(coupon({ expiryDate: "2026-05-31" }), "2026-06-01")).toBe("expired");
      expect(couponProblem(coupon({ expiryDate: "2026-12-31" }), "2027-01-01")).toBe("expired");
      expect(couponProblem(coupon({ expiryDate: "2026-12-31" }), "2026-12-31")).toBeNull();
      // The default expiry of docs/product.md "Coupons".
      expect(couponProblem(coupon({ expiryDate: "2099-12-31" }), "2099-12-31")).toBeNull();
      expect(couponProblem(coupon({ expiryDate: "2099-12-31" }), "2100-01-01")).toBe("expired");
    });

    it("counts the day in studio time: late evening in Atlanta is still the expiry day", () => {
      // 03:30Z on 16 June is 23:30 on 15 June in Atlanta.
      const today = studioDateOf(Date.UTC(2026, 5, 16, 3, 30));
      expect(today).toBe("2026-06-15");
      expect(couponProblem(coupon({ expiryDate: "2026-06-15" }), today)).toBeNull();
      const nextMorning = studioDateOf(Date.UTC(2026, 5, 16, 4, 0));
      expect(couponProblem(coupon({ expiryDate: "2026-06-15" }), nextMorning)).toBe("expired");
    });
  });

  describe("uses", () => {
    it("allows the last remaining use", () => {
      expect(couponProblem(coupon({ maxUses: 5, currentUses: 4 }), TODAY)).toBeNull();
      expect(couponProblem(coupon({ maxUses: 1, currentUses: 0 }), TODAY)).toBeNull();
    });

    it("refuses a coupon that has reached its limit", () => {
      expect(couponProblem(coupon({ maxUses: 5, currentUses: 5 }), TODAY)).toBe("usedUp");
      expect(couponProblem(coupon({ maxUses: 1, currentUses: 1 }), TODAY)).toBe("usedUp");
      expect(couponProblem(coupon({ maxUses: 5, currentUses: 9 }), TODAY)).toBe("usedUp");
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
    expect(couponProblem(everythingWrong, TODAY)).toBe("inactive");
    expect(couponProblem({ ...everythingWrong, isActive: true }, TODAY)).toBe("expired");
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

describe("couponValueFromAmount", () => {
  it("rounds a percentage half up to a whole number", () => {
    expect(couponValueFromAmount("PERCENTAGE", "12.5")).toEqual({ value: 13 });
    expect(couponValueFromAmount("PERCENTAGE", "12.49")).toEqual({ value: 12 });
    expect(couponValueFromAmount("PERCENTAGE", "0.5")).toEqual({ value: 1 });
    expect(couponValueFromAmount("PERCENTAGE", "20")).toEqual({ value: 20 });
    expect(couponValueFromAmount("PERCENTAGE", "100.4")).toEqual({ value: 100 });
  });

  it("refuses a percentage that rounds to 0 or above 100", () => {
    expect(couponValueFromAmount("PERCENTAGE", "0.49")).toEqual({ error: "percentTooSmall" });
    expect(couponValueFromAmount("PERCENTAGE", "100.5")).toEqual({ error: "percentTooLarge" });
    expect(couponValueFromAmount("PERCENTAGE", "150")).toEqual({ error: "percentTooLarge" });
  });

  it("converts a fixed amount to cents exactly (no float drift)", () => {
    expect(couponValueFromAmount("FIXED_AMOUNT", "15")).toEqual({ value: 1500 });
    expect(couponValueFromAmount("FIXED_AMOUNT", "0.29")).toEqual({ value: 29 });
    expect(couponValueFromAmount("FIXED_AMOUNT", "1.1")).toEqual({ value: 110 });
    expect(couponValueFromAmount("FIXED_AMOUNT", ".5")).toEqual({ value: 50 });
    expect(couponValueFromAmount("FIXED_AMOUNT", "0.01")).toEqual({ value: 1 });
    expect(couponValueFromAmount("FIXED_AMOUNT", "007.50")).toEqual({ value: 750 });
    expect(couponValueFromAmount("FIXED_AMOUNT", "100000")).toEqual({ value: 10_000_000 });
  });

  it("allows at most two decimals", () => {
    expect(couponValueFromAmount("FIXED_AMOUNT", "1.005")).toEqual({ error: "amountDecimals" });
    expect(couponValueFromAmount("PERCENTAGE", "10.123")).toEqual({ error: "amountDecimals" });
  });

  it("refuses zero, negatives and anything that is not a plain decimal", () => {
    for (const amount of [
      "0",
      "0.00",
      "-5",
      "",
      " ",
      ".",
      "1e3",
      "0x10",
      "abc",
      "1,5",
      "Infinity",
      "NaN",
      "٣",
    ]) {
      expect(couponValueFromAmount("FIXED_AMOUNT", amount), amount).toEqual({ error: "amount" });
    }
  });

  it("refuses huge numbers before they lose precision", () => {
    expect(couponValueFromAmount("FIXED_AMOUNT", "100000.01")).toEqual({ error: "fixedTooLarge" });
    expect(couponValueFromAmount("FIXED_AMOUNT", "9".repeat(400))).toEqual({
      error: "fixedTooLarge",
    });
    expect(couponValueFromAmount("PERCENTAGE", "9".repeat(30))).toEqual({
      error: "percentTooLarge",
    });
  });
});

describe("couponValueProblem (the API's value, already converted)", () => {
  it("takes whole numbers in range", () => {
    expect(couponValueProblem("PERCENTAGE", 100)).toBeNull();
    expect(couponValueProblem("FIXED_AMOUNT", 1500)).toBeNull();
  });
  it("refuses fractions, 0, negatives and out-of-range values", () => {
    expect(couponValueProblem("PERCENTAGE", 12.5)).toBe("amount");
    expect(couponValueProblem("PERCENTAGE", 0)).toBe("amount");
    expect(couponValueProblem("FIXED_AMOUNT", -100)).toBe("amount");
    expect(couponValueProblem("PERCENTAGE", 101)).toBe("percentTooLarge");
    expect(couponValueProblem("FIXED_AMOUNT", 10_000_001)).toBe("fixedTooLarge");
    expect(couponValueProblem("FIXED_AMOUNT", Number.NaN)).toBe("amount");
  });
});

describe("maxUsesFrom", () => {
  it("reads whole numbers of at least 0", () => {
    expect(maxUsesFrom("0")).toEqual({ value: 0 });
    expect(maxUsesFrom(" 25 ")).toEqual({ value: 25 });
  });
  it("refuses negatives, fractions, blanks and huge numbers", () => {
    for (const text of ["-1", "1.5", "", "1e3", "abc"]) {
      expect(maxUsesFrom(text), text).toEqual({ error: "uses" });
    }
    expect(maxUsesFrom("1000001")).toEqual({ error: "usesTooLarge" });
    expect(maxUsesFrom("9".repeat(40))).toEqual({ error: "uses" });
  });
});

describe("couponDescription and formatCouponDiscount", () => {
  it("generate the descriptions of docs/product.md 'Coupons'", () => {
    expect(couponDescription("PERCENTAGE", 20)).toBe("20% off coupon");
    expect(couponDescription("FIXED_AMOUNT", 1500)).toBe("$15 off coupon");
    expect(couponDescription("FIXED_AMOUNT", 1550)).toBe("$15.50 off coupon");
    expect(couponDescription("FIXED_AMOUNT", 123_456_78)).toBe("$123,456.78 off coupon");
  });
  it("show the Discount column", () => {
    expect(formatCouponDiscount("PERCENTAGE", 20)).toBe("20%");
    expect(formatCouponDiscount("FIXED_AMOUNT", 1500)).toBe("$15.00");
    expect(formatCouponDiscount("FIXED_AMOUNT", 5)).toBe("$0.05");
  });
});

describe("expiryDateFrom", () => {
  it("defaults to 31 Dec 2099 when blank", () => {
    expect(expiryDateFrom("")).toEqual({ value: NO_EXPIRY });
    expect(expiryDateFrom(null)).toEqual({ value: "2099-12-31" });
    expect(expiryDateFrom(undefined)).toEqual({ value: "2099-12-31" });
  });
  it("takes a form date or the calendar day of an ISO instant as written", () => {
    expect(expiryDateFrom("2027-03-14")).toEqual({ value: "2027-03-14" });
    expect(expiryDateFrom("2027-03-14T00:00:00.000Z")).toEqual({ value: "2027-03-14" });
  });
  it("refuses dates that do not exist and other text", () => {
    for (const text of [
      "2027-02-30",
      "2027-13-01",
      "14/03/2027",
      "tomorrow",
      "1999-01-01",
      "2027-03-14Tjunk",
    ]) {
      expect(expiryDateFrom(text), text).toEqual({ error: "expiry" });
    }
  });
  it("formats the Expires column", () => {
    expect(formatExpiry("2099-12-31")).toBe("December 31, 2099");
  });
});

describe("parseCouponForm", () => {
  const input = (overrides: Partial<CouponInput> = {}): CouponInput => ({
    code: " summer25 ",
    type: "PERCENTAGE",
    amount: "25",
    maxUses: "0",
    expiryDate: "",
    ...overrides,
  });

  it("builds an active coupon with an upper-case code and a generated description", () => {
    expect(parseCouponForm(input())).toEqual({
      coupon: {
        code: "SUMMER25",
        type: "PERCENTAGE",
        value: 25,
        maxUses: 0,
        expiryDate: "2099-12-31",
        isActive: true,
        description: "25% off coupon",
      },
    });
  });

  it("reports every refused field with the messages of docs/product.md 'Validation'", () => {
    const result = parseCouponForm(input({ code: "  ", amount: "0", maxUses: "-1" }));
    expect(result).toEqual({ errors: { code: "codeRequired", amount: "amount", maxUses: "uses" } });
    expect(COUPON_FORM_ERRORS.codeRequired).toEqual({
      title: "Code required",
      description: "Please enter a coupon code",
    });
    expect(COUPON_FORM_ERRORS.amount).toEqual({
      title: "Invalid amount",
      description: "Discount amount must be a positive number",
    });
    expect(COUPON_FORM_ERRORS.uses).toEqual({
      title: "Invalid uses",
      description: "Maximum uses must be a non-negative number",
    });
  });

  it("refuses a code alone, an unknown type and codes that are not URL-safe", () => {
    expect(parseCouponForm(input({ code: "" }))).toEqual({ errors: { code: "codeRequired" } });
    expect(parseCouponForm(input({ type: "BOGUS" }))).toEqual({ errors: { type: "type" } });
    expect(parseCouponForm(input({ code: "a/b" }))).toEqual({ errors: { code: "codeFormat" } });
    expect(parseCouponForm(input({ code: "X".repeat(51) }))).toEqual({
      errors: { code: "codeFormat" },
    });
  });

  it("reads the posted form as conform does, every refused field at once", () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(input({ code: "", amount: "0", maxUses: "-1" }))) {
      form.set(name, value);
    }
    const submission = parseWithZod(form, { schema: couponFormSchema });
    const errors = submission.status === "error" ? submission.error : undefined;
    expect(errors).toEqual({
      code: ["Please enter a coupon code"],
      amount: ["Discount amount must be a positive number"],
      maxUses: ["Maximum uses must be a non-negative number"],
    });
    expect(couponRefusal(errors)).toEqual(COUPON_FORM_ERRORS.codeRequired);
  });

  it("checks the amount by its type even when another field is refused", () => {
    expect(parseCouponForm(input({ code: "a/b", amount: "150" }))).toEqual({
      errors: { code: "codeFormat", amount: "percentTooLarge" },
    });
    expect(parseCouponForm(input({ type: "FIXED_AMOUNT", maxUses: "x", amount: "150" }))).toEqual({
      errors: { maxUses: "uses" },
    });
  });

  it("names the first refused field in the form's order in the toast", () => {
    expect(
      couponRefusal({
        maxUses: [COUPON_FORM_ERRORS.uses.description],
        amount: [COUPON_FORM_ERRORS.fixedTooLarge.description],
      }),
    ).toEqual(COUPON_FORM_ERRORS.fixedTooLarge);
  });

  it("words the duplicate-code message as docs/product.md 'Messages' does", () => {
    expect(duplicateCouponMessage("SUMMER25")).toBe(
      'A coupon with code "SUMMER25" already exists. Please use a different code.',
    );
  });
});
