import { describe, expect, it } from "vitest";
import {
  applyCoupon,
  type CouponTerms,
  couponAppliedMessage,
  formatDollars,
  HOURLY_RATES,
  hourlyRateFor,
  isStakeholderAnswer,
  type PriceInput,
  formatQuoteAmount,
  priceBooking,
  type QuoteLine,
  quoteLines,
  quoteTotal,
  RETAINER_PACKAGE,
} from "#app/domain/pricing";

const percent = (value: number): CouponTerms => ({ type: "PERCENTAGE", value });
const fixedCents = (value: number): CouponTerms => ({ type: "FIXED_AMOUNT", value });

const booking = (overrides: Partial<PriceInput> = {}): PriceInput => ({
  hours: 2,
  stakeholder: "no",
  servicePrices: [],
  coupon: null,
  buysRetainer: false,
  retainerHoursDrawn: 0,
  ...overrides,
});

describe("constants (docs/product.md 'Constants')", () => {
  it("are $150 and $200 an hour and a $999, 8-hour, 30-day retainer", () => {
    expect(HOURLY_RATES).toEqual({ stakeholder: 150, nonMember: 200 });
    expect(RETAINER_PACKAGE).toEqual({ price: 999, hours: 8, days: 30 });
  });
});

describe("hourly rate", () => {
  it.each(["yes", "YES", "Yes", "yEs", " yes ", "\tyes\n"])(
    "is the stakeholder's $150 for %o",
    (answer) => {
      expect(isStakeholderAnswer(answer)).toBe(true);
      expect(hourlyRateFor(answer)).toBe(150);
    },
  );

  it.each(["no", "NO", "", " ", "y", "yes please", "true", "ye s"])(
    "is the non-member's $200 for %o",
    (answer) => {
      expect(isStakeholderAnswer(answer)).toBe(false);
      expect(hourlyRateFor(answer)).toBe(200);
    },
  );
});

describe("priceBooking", () => {
  it("is hours x rate for a plain booking", () => {
    expect(priceBooking(booking())).toEqual({
      hourlyRate: 200,
      sessionCost: 400,
      servicesCost: 0,
      originalCost: 400,
      discountAmount: 0,
      totalCost: 400,
    });
    expect(priceBooking(booking({ hours: 8, stakeholder: "yes" }))).toMatchObject({
      hourlyRate: 150,
      sessionCost: 1200,
      totalCost: 1200,
    });
  });

  it.each([
    [2, "yes", 300],
    [3, "Yes", 450],
    [5, " YES ", 750],
    [2, "no", 400],
    [7, "no", 1400],
    [8, "maybe", 1600],
  ])("prices %i hours for stakeholder %o at $%i", (hours, stakeholder, expected) => {
    expect(priceBooking(booking({ hours, stakeholder })).totalCost).toBe(expected);
  });

  it("adds the selected add-on services", () => {
    const price = priceBooking(
      booking({ hours: 3, stakeholder: "yes", servicePrices: [75, 50, 125] }),
    );
    expect(price).toMatchObject({
      sessionCost: 450,
      servicesCost: 250,
      originalCost: 700,
      totalCost: 700,
      discountAmount: 0,
    });
  });

  it("counts the same price twice when two services cost the same", () => {
    expect(priceBooking(booking({ servicePrices: [50, 50] })).servicesCost).toBe(100);
  });

  it("charges $999 plus add-ons for the booking that buys the retainer, whatever the hours or rate", () => {
    for (const stakeholder of ["yes", "no"]) {
      for (const hours of [2, 5, 8]) {
        const price = priceBooking(
          booking({ hours, stakeholder, buysRetainer: true, servicePrices: [100, 25] }),
        );
        expect(price.sessionCost).toBe(999);
        expect(price.servicesCost).toBe(125);
        expect(price.originalCost).toBe(1124);
        expect(price.totalCost).toBe(1124);
      }
    }
  });

  it("applies a coupon to the retainer purchase too", () => {
    const price = priceBooking(booking({ hours: 8, buysRetainer: true, coupon: percent(10) }));
    // 99900 cents - 9990 = 89910 cents = $899.10 -> $899.
    expect(price).toMatchObject({ originalCost: 999, totalCost: 899, discountAmount: 100 });
  });

  it("does not bill hours drawn from an active retainer, but still bills add-ons", () => {
    const price = priceBooking(
      booking({ hours: 4, stakeholder: "no", retainerHoursDrawn: 4, servicePrices: [60] }),
    );
    expect(price).toMatchObject({
      hourlyRate: 200,
      sessionCost: 0,
      servicesCost: 60,
      originalCost: 60,
      totalCost: 60,
    });
    expect(priceBooking(booking({ hours: 4, retainerHoursDrawn: 4 })).totalCost).toBe(0);
  });

  it("bills the hours a partial draw leaves uncovered at the customer's rate", () => {
    // 5 hours, 2 left on the retainer: 3 billed.
    expect(
      priceBooking(booking({ hours: 5, stakeholder: "yes", retainerHoursDrawn: 2 })).sessionCost,
    ).toBe(450);
    expect(
      priceBooking(booking({ hours: 5, stakeholder: "no", retainerHoursDrawn: 2 })).sessionCost,
    ).toBe(600);
  });

  it("never bills negative hours when more is drawn than booked", () => {
    expect(priceBooking(booking({ hours: 2, retainerHoursDrawn: 8 })).sessionCost).toBe(0);
  });

  it("takes a percentage off the whole original cost, add-ons included", () => {
    const price = priceBooking(booking({ hours: 2, servicePrices: [100], coupon: percent(25) }));
    expect(price).toMatchObject({ originalCost: 500, totalCost: 375, discountAmount: 125 });
  });

  it("takes a fixed amount, given in cents, off the total", () => {
    const price = priceBooking(booking({ hours: 2, coupon: fixedCents(5000) }));
    expect(price).toMatchObject({ originalCost: 400, totalCost: 350, discountAmount: 50 });
  });

  it("makes the booking free with a 100% coupon", () => {
    const price = priceBooking(booking({ hours: 8, servicePrices: [300], coupon: percent(100) }));
    expect(price).toMatchObject({ originalCost: 1900, totalCost: 0, discountAmount: 1900 });
  });

  it("floors the total at $0 when a fixed amount exceeds it", () => {
    const price = priceBooking(
      booking({ hours: 2, stakeholder: "yes", coupon: fixedCents(50_000) }),
    );
    expect(price).toMatchObject({ originalCost: 300, totalCost: 0, discountAmount: 300 });
  });

  it("reports discountAmount as original minus total after rounding", () => {
    // 3 h stakeholder = $450; 33% off = $301.50 -> $302, so the discount shown is $148.
    const price = priceBooking(booking({ hours: 3, stakeholder: "yes", coupon: percent(33) }));
    expect(price).toMatchObject({ originalCost: 450, totalCost: 302, discountAmount: 148 });
    expect(price.discountAmount).toBe(price.originalCost - price.totalCost);
  });

  it("keeps totals whole, non-negative and discountAmount == original - total", () => {
    for (const hours of [2, 3, 4, 5, 6, 7, 8]) {
      for (const value of [1, 7, 33, 49, 50, 51, 67, 99]) {
        const price = priceBooking(
          booking({ hours, stakeholder: "yes", servicePrices: [35], coupon: percent(value) }),
        );
        expect(Number.isInteger(price.totalCost)).toBe(true);
        expect(price.totalCost).toBeGreaterThanOrEqual(0);
        expect(price.discountAmount).toBe(price.originalCost - price.totalCost);
      }
    }
  });
});

describe("quoteLines (the checkout's and the booking form's itemised list)", () => {
  const services = [
    { id: 1, name: "Video Editing", price: 150 },
    { id: 2, name: "Teleprompter", price: 35 },
  ];

  /** The lines of what `priceBooking` charged, as the checkout lists them. */
  function linesOf(input: PriceInput, couponCode: string | null = null) {
    const price = priceBooking(input);
    const lines = quoteLines({
      hours: input.hours,
      hourlyRate: price.hourlyRate,
      buysRetainer: input.buysRetainer,
      retainerHoursDrawn: input.retainerHoursDrawn,
      services: services.filter((service) => input.servicePrices.includes(service.price)),
      discountAmount: price.discountAmount,
      couponCode,
    });
    return { price, lines };
  }

  const shown = (lines: QuoteLine[]) => lines.map((line) => [line.label, formatQuoteAmount(line)]);

  it("lists hours x rate as the booking form does, each add-on, and adds up to the total", () => {
    const { price, lines } = linesOf(booking({ hours: 3, servicePrices: [150, 35] }));
    expect(shown(lines)).toEqual([
      ["3 hours × $200.00", "$600.00"],
      ["Video Editing", "$150.00"],
      ["Teleprompter", "$35.00"],
    ]);
    expect(quoteTotal(lines)).toBe(price.totalCost);
  });

  it("lists the discount of a 100% coupon: the lines add up to $0", () => {
    const { price, lines } = linesOf(
      booking({ hours: 2, servicePrices: [35], coupon: percent(100) }),
      "FREE100",
    );
    expect(price.totalCost).toBe(0);
    expect(shown(lines).at(-1)).toEqual(["Discount (FREE100)", "−$435.00"]);
    expect(quoteTotal(lines)).toBe(0);
  });

  it("lists a fixed-amount coupon's discount as rounded, so the lines still add up", () => {
    // $400 - $10.50 = $389.50, rounded half up to $390: the discount shown is $10.
    const { price, lines } = linesOf(booking({ hours: 2, coupon: fixedCents(1050) }), "TENFIFTY");
    expect(price.totalCost).toBe(390);
    expect(shown(lines)).toEqual([
      ["2 hours × $200.00", "$400.00"],
      ["Discount (TENFIFTY)", "−$10.00"],
    ]);
    expect(quoteTotal(lines)).toBe(390);
    // $400 - $10.49 = $389.51 -> $390 too; $400 - $10.51 = $389.49 -> $389, $11 off.
    expect(quoteTotal(linesOf(booking({ coupon: fixedCents(1051) })).lines)).toBe(389);
  });

  it("lists the retainer package at $999, with its add-ons and coupon", () => {
    const { price, lines } = linesOf(
      booking({ hours: 8, buysRetainer: true, servicePrices: [35], coupon: percent(10) }),
      "TEN",
    );
    expect(shown(lines)).toEqual([
      ["Retainer package (8 hours, 30 days; this session 8 hours)", "$999.00"],
      ["Teleprompter", "$35.00"],
      ["Discount (TEN)", "−$103.00"],
    ]);
    expect(quoteTotal(lines)).toBe(price.totalCost);
    expect(price.totalCost).toBe(931);
  });

  it("lists the hours drawn from a retainer at no charge, and the rest at the rate", () => {
    const partly = linesOf(booking({ hours: 3, stakeholder: "yes", retainerHoursDrawn: 1 }));
    expect(shown(partly.lines)).toEqual([["2 hours × $150.00 (1 from your retainer)", "$300.00"]]);
    expect(quoteTotal(partly.lines)).toBe(partly.price.totalCost);
    const whole = linesOf(booking({ hours: 2, retainerHoursDrawn: 2, servicePrices: [35] }));
    expect(quoteTotal(whole.lines)).toBe(35);
  });

  it("always adds up to priceBooking's total (every hour, rate, add-on set, coupon, retainer)", () => {
    const coupons = [null, percent(1), percent(33), percent(50), percent(100)].concat([
      fixedCents(1),
      fixedCents(49),
      fixedCents(50),
      fixedCents(1050),
      fixedCents(99_999),
    ]);
    for (const hours of [2, 5, 8])
      for (const stakeholder of ["yes", "no"])
        for (const servicePrices of [[], [35], [150, 35]])
          for (const coupon of coupons)
            for (const [buysRetainer, retainerHoursDrawn] of [
              [false, 0],
              [true, 0],
              [false, 1],
              [false, 8],
            ] as const) {
              const input = booking({
                hours,
                stakeholder,
                servicePrices,
                coupon,
                buysRetainer,
                retainerHoursDrawn,
              });
              const { price, lines } = linesOf(input, coupon ? "CODE" : null);
              expect(quoteTotal(lines), JSON.stringify(input)).toBe(price.totalCost);
              expect(lines.filter((line) => line.kind === "discount")).toHaveLength(
                price.discountAmount > 0 ? 1 : 0,
              );
            }
  });
});

describe("applyCoupon", () => {
  it("returns the amount unchanged without a coupon", () => {
    expect(applyCoupon(450, null)).toBe(450);
    expect(applyCoupon(0, null)).toBe(0);
  });

  it("rounds exactly half a dollar up and anything below it down", () => {
    // $12.50 -> $13, $12.49 -> $12.
    expect(applyCoupon(25, percent(50))).toBe(13);
    expect(applyCoupon(13, fixedCents(50))).toBe(13);
    expect(applyCoupon(13, fixedCents(51))).toBe(12);
    expect(applyCoupon(13, fixedCents(49))).toBe(13);
  });

  it.each([
    // Real bookings whose discounted price lands on exactly 50 cents.
    ["3 h stakeholder $450, 33% off = $301.50", 450, percent(33), 302],
    ["retainer $999, 50% off = $499.50", 999, percent(50), 500],
    ["retainer $999, 10% off = $899.10", 999, percent(10), 899],
    ["retainer $999, 49% off = $509.49", 999, percent(49), 509],
    ["retainer $999, 51% off = $489.51", 999, percent(51), 490],
    ["2 h non-member $400, 33% off = $268.00", 400, percent(33), 268],
    ["2 h + $35 add-on = $435, 10% off = $391.50", 435, percent(10), 392],
    ["2 h + $35 add-on = $435, 30% off = $304.50", 435, percent(30), 305],
    ["2 h non-member $400, $12.50 off = $387.50", 400, fixedCents(1250), 388],
    ["2 h non-member $400, $12.51 off = $387.49", 400, fixedCents(1251), 387],
    ["2 h stakeholder $300, $0.99 off = $299.01", 300, fixedCents(99), 299],
  ])("%s -> $%i", (_label, original, coupon, expected) => {
    expect(applyCoupon(original, coupon)).toBe(expected);
  });

  it("treats a FIXED_AMOUNT value as cents, not dollars", () => {
    expect(applyCoupon(400, fixedCents(100))).toBe(399);
    expect(applyCoupon(400, fixedCents(40_000))).toBe(0);
  });

  it("gives 0 for 100% and never a negative total", () => {
    expect(applyCoupon(1600, percent(100))).toBe(0);
    expect(applyCoupon(300, fixedCents(30_001))).toBe(0);
    expect(applyCoupon(300, fixedCents(1_000_000))).toBe(0);
    expect(Object.is(applyCoupon(300, fixedCents(1_000_000)), 0)).toBe(true);
  });

  it("leaves a 0% or zero-cent coupon without effect", () => {
    expect(applyCoupon(450, percent(0))).toBe(450);
    expect(applyCoupon(450, fixedCents(0))).toBe(450);
  });
});

describe("formatDollars", () => {
  it.each([
    [0, "$0.00"],
    [300, "$300.00"],
    [999, "$999.00"],
    [1234, "$1,234.00"],
    [1_000_000, "$1,000,000.00"],
    [12.5, "$12.50"],
    [null, "$0.00"],
    [undefined, "$0.00"],
  ])("shows %o as %o", (amount, expected) => {
    expect(formatDollars(amount)).toBe(expected);
  });
});

describe("couponAppliedMessage (docs/product.md 'Messages')", () => {
  it("says a 100% coupon makes the booking free", () => {
    expect(couponAppliedMessage(percent(100))).toBe("Your booking will be completely free");
  });

  it("names a percentage", () => {
    expect(couponAppliedMessage(percent(25))).toBe("25% discount applied to your booking.");
    expect(couponAppliedMessage(percent(1))).toBe("1% discount applied to your booking.");
    expect(couponAppliedMessage(percent(99))).toBe("99% discount applied to your booking.");
  });

  it("names a fixed amount in dollars, converted from cents", () => {
    expect(couponAppliedMessage(fixedCents(5000))).toBe("$50 discount applied to your booking.");
    expect(couponAppliedMessage(fixedCents(1250))).toBe("$12.50 discount applied to your booking.");
    expect(couponAppliedMessage(fixedCents(5))).toBe("$0.05 discount applied to your booking.");
  });

  it("does not call a large fixed amount free", () => {
    expect(couponAppliedMessage(fixedCents(10_000))).toBe("$100 discount applied to your booking.");
  });
});
