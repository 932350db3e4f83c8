/**
 * The price of a booking (docs/product.md "Price", "Coupons", "Retainer package"). One
 * function used by the server, which alone decides what a customer pays, and by the booking
 * form's live summary, so the two can never disagree. Pure: no I/O, no clock.
 *
 * Money is whole US dollars; coupon arithmetic is done in cents and the total rounded half up
 * to whole dollars, never below 0.
 */
import { HOURLY_RATES } from "#app/domain/rates";

export { HOURLY_RATES };

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

/** The hours charged by the hour: those not drawn from a retainer. */
function billedHours(hours: number, retainerHoursDrawn: number): number {
  return Math.max(0, hours - retainerHoursDrawn);
}

/** What the hours cost: $999 for a retainer purchase, otherwise the billed hours x rate. */
function sessionCostOf(input: {
  hours: number;
  hourlyRate: number;
  buysRetainer: boolean;
  retainerHoursDrawn: number;
}): number {
  return input.buysRetainer
    ? RETAINER_PACKAGE.price
    : billedHours(input.hours, input.retainerHoursDrawn) * input.hourlyRate;
}

export function priceBooking(input: PriceInput): Price {
  const hourlyRate = hourlyRateFor(input.stakeholder);
  const sessionCost = sessionCostOf({ ...input, hourlyRate });
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

/** What a quote is made of, as the booking form's summary and the checkout list it. */
export type QuoteInput = {
  hours: number;
  hourlyRate: number;
  buysRetainer: boolean;
  retainerHoursDrawn: number;
  services: readonly { id: number; name: string; price: number }[];
  /** Whole dollars off (`Price.discountAmount`); 0 without a coupon. */
  discountAmount: number;
  couponCode: string | null;
};

/** One line of a quote; `amount` in whole dollars, negative for the discount. */
export type QuoteLine = {
  kind: "session" | "service" | "discount";
  /** Unique within a quote (a list key). */
  key: string;
  label: string;
  amount: number;
};

/**
 * The lines of a quote (docs/product.md "Price"): hours x rate (or the retainer package, or
 * the hours drawn from one), each add-on, the discount. They add up to the total, because the
 * discount is the difference `priceBooking` rounded to. The one place these lines are made.
 */
export function quoteLines(input: QuoteInput): QuoteLine[] {
  const rate = formatDollars(input.hourlyRate);
  const billed = billedHours(input.hours, input.retainerHoursDrawn);
  const session: QuoteLine = {
    kind: "session",
    key: "session",
    label: input.buysRetainer
      ? `Retainer package (${RETAINER_PACKAGE.hours} hours, ${RETAINER_PACKAGE.days} days; this session ${input.hours} hours)`
      : input.retainerHoursDrawn > 0
        ? `${billed} hours × ${rate} (${input.hours - billed} from your retainer)`
        : `${input.hours} hours × ${rate}`,
    amount: sessionCostOf(input),
  };
  const services = input.services.map(
    (service): QuoteLine => ({
      kind: "service",
      key: `service:${service.id}`,
      label: service.name,
      amount: service.price,
    }),
  );
  const discount: QuoteLine[] =
    input.discountAmount > 0
      ? [
          {
            kind: "discount",
            key: "discount",
            label: input.couponCode ? `Discount (${input.couponCode})` : "Discount",
            amount: -input.discountAmount,
          },
        ]
      : [];
  return [session, ...services, ...discount];
}

/** The sum of a quote's lines. */
export function quoteTotal(lines: readonly QuoteLine[]): number {
  return lines.reduce((sum, line) => sum + line.amount, 0);
}

/** A line's amount as shown: '−$20.00' for the discount. */
export function formatQuoteAmount(line: QuoteLine): string {
  return line.amount < 0 ? `−${formatDollars(-line.amount)}` : formatDollars(line.amount);
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
