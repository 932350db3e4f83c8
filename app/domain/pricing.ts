/**
 * The price of a booking (docs/product.md "Price", "Coupons", "Retainer package"). One
 * function used by the server, which alone decides what a customer pays, and by the booking
 * form's live summary, so the two can never disagree. Pure: no I/O, no clock.
 *
 * Money is whole US dollars; coupon arithmetic is done in cents and the total rounded half up
 * to whole dollars, never below 0.
 */
export const HOURLY_RATES = { stakeholder: 150, nonMember: 200 } as const;

export const RETAINER_PACKAGE = { price: 999, hours: 8, days: 30 } as const;

export type CouponTerms = {
  type: "PERCENTAGE" | "FIXED_AMOUNT";
  /** PERCENTAGE: whole percent 1-100. FIXED_AMOUNT: cents. */
  value: number;
};

/** 'yes' in any case means the stakeholder rate (docs/product.md "Data"). */
export function isStakeholderAnswer(stakeholder: string): boolean {
  return stakeholder.trim().toLowerCase() === "yes";
}

export function hourlyRateFor(stakeholder: string): number {
  return isStakeholderAnswer(stakeholder) ? HOURLY_RATES.stakeholder : HOURLY_RATES.nonMember;
}

/** The discounted total of `originalDollars`, in whole dollars, rounded half up, never < 0. */
export function applyCoupon(originalDollars: number, coupon: CouponTerms | null): number {
  if (!coupon) return originalDollars;
  const originalCents = originalDollars * 100;
  const discountCents =
    coupon.type === "PERCENTAGE" ? (originalCents * coupon.value) / 100 : coupon.value;
  // Whole cents either way: a percentage of whole dollars is whole cents.
  const totalCents = Math.max(0, Math.round(originalCents - discountCents));
  // Half up to whole dollars in integer arithmetic: 1250 cents -> $13, 1249 -> $12.
  return Math.floor((totalCents + 50) / 100);
}

export type PriceInput = {
  hours: number;
  stakeholder: string;
  /** Prices (whole dollars) of the selected add-on services. */
  servicePrices: readonly number[];
  coupon: CouponTerms | null;
  /** This booking buys the retainer package: $999 instead of hours x rate. */
  buysRetainer: boolean;
  /** Hours drawn from the customer's active retainer: not charged by the hour. */
  retainerHoursDrawn: number;
};

export type Price = {
  hourlyRate: number;
  /** What the hours cost: hours x rate, $999 for a retainer purchase, 0 for drawn hours. */
  sessionCost: number;
  servicesCost: number;
  originalCost: number;
  discountAmount: number;
  totalCost: number;
};

export function priceBooking(input: PriceInput): Price {
  const hourlyRate = hourlyRateFor(input.stakeholder);
  const billedHours = Math.max(0, input.hours - input.retainerHoursDrawn);
  const sessionCost = input.buysRetainer ? RETAINER_PACKAGE.price : billedHours * hourlyRate;
  const servicesCost = input.servicePrices.reduce((sum, price) => sum + price, 0);
  const originalCost = sessionCost + servicesCost;
  const totalCost = applyCoupon(originalCost, input.coupon);
  return {
    hourlyRate,
    sessionCost,
    servicesCost,
    originalCost,
    discountAmount: originalCost - totalCost,
    totalCost,
  };
}

/** Made once: making a formatter costs far more than formatting (admin lists show many). */
const DOLLARS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** "$1,234.00": docs/product.md "Price": US dollars with two decimals. */
export function formatDollars(dollars: number | null | undefined): string {
  return DOLLARS.format(dollars ?? 0);
}

/** How the 'Coupon Applied!' toast describes a coupon (docs/product.md "Messages"). */
export function couponAppliedMessage(coupon: CouponTerms): string {
  if (coupon.type === "PERCENTAGE") {
    return coupon.value >= 100
      ? "Your booking will be completely free"
      : `${coupon.value}% discount applied to your booking.`;
  }
  const dollars = coupon.value / 100;
  const amount = Number.isInteger(dollars) ? String(dollars) : dollars.toFixed(2);
  return `$${amount} discount applied to your booking.`;
}
