/**
 * The price of a booking (docs/product.md "Price", "Coupons", "Retainer package"), one function
 * for the server, which alone decides, and the form's live summary, so the two never disagree.
 * Whole dollars; coupon arithmetic in cents, rounded half up, never below 0.
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

export function applyCoupon(originalDollars: number, coupon: CouponTerms | null): number {
  if (!coupon) return originalDollars;
  const originalCents = originalDollars * 100;
  const discountCents =
    coupon.type === "PERCENTAGE" ? (originalCents * coupon.value) / 100 : coupon.value;
  const totalCents = Math.max(0, Math.round(originalCents - discountCents));
  // Half up in integer arithmetic: 1250 cents -> $13.
  return Math.floor((totalCents + 50) / 100);
}

export type PriceInput = {
  hours: number;
  stakeholder: string;
  servicePrices: readonly number[];
  coupon: CouponTerms | null;
  buysRetainer: boolean;
  /** Not charged by the hour. */
  retainerHoursDrawn: number;
};

export type Price = {
  hourlyRate: number;
  sessionCost: number;
  servicesCost: number;
  originalCost: number;
  discountAmount: number;
  totalCost: number;
};

function billedHours(hours: number, retainerHoursDrawn: number): number {
  return Math.max(0, hours - retainerHoursDrawn);
}

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

export type QuoteInput = {
  hours: number;
  hourlyRate: number;
  buysRetainer: boolean;
  retainerHoursDrawn: number;
  services: readonly { id: number; name: string; price: number }[];
  discountAmount: number;
  couponCode: string | null;
};

export type QuoteLine = {
  kind: "session" | "service" | "discount";
  key: string;
  label: string;
  amount: number;
};

/** The lines add up to the total: the discount is the difference `priceBooking` rounded to. */
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

export function quoteTotal(lines: readonly QuoteLine[]): number {
  return lines.reduce((sum, line) => sum + line.amount, 0);
}

export function formatQuoteAmount(line: QuoteLine): string {
  return line.amount < 0 ? `−${formatDollars(-line.amount)}` : formatDollars(line.amount);
}

/** Made once: making a formatter costs far more than formatting (admin lists show many). */
const DOLLARS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** docs/product.md "Price". */
export function formatDollars(dollars: number | null | undefined): string {
  return DOLLARS.format(dollars ?? 0);
}

/** docs/product.md "Messages". */
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
