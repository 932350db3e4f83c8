import type { CouponTerms } from "./pricing";

/**
 * Whether a coupon may be redeemed (product-decisions "Coupons"): it exists, is active, is
 * not past the end of its expiry day (studio time) and has uses left (`maxUses` 0 =
 * unlimited). The messages are what the 'Invalid Coupon' toast shows.
 */
export type CouponRecord = CouponTerms & {
  code: string;
  isActive: boolean;
  maxUses: number;
  currentUses: number;
  /** Studio-local yyyy-MM-dd, valid through the end of that day. */
  expiryDate: string;
};

export const COUPON_MESSAGES = {
  required: "Please enter a coupon code",
  notFound: "This coupon is invalid or has expired.",
  inactive: "This coupon is no longer active.",
  expired: "This coupon has expired.",
  usedUp: "This coupon has reached its usage limit.",
  valid: "Coupon is valid",
} as const;

/** Codes are compared case-insensitively and shown upper case. */
export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

/** Null when the coupon can be used on `today` (studio yyyy-MM-dd), else why not. */
export function couponProblem(coupon: CouponRecord | undefined, today: string): string | null {
  if (!coupon) return COUPON_MESSAGES.notFound;
  if (!coupon.isActive) return COUPON_MESSAGES.inactive;
  // yyyy-MM-dd strings sort like the dates they name.
  if (coupon.expiryDate < today) return COUPON_MESSAGES.expired;
  if (coupon.maxUses > 0 && coupon.currentUses >= coupon.maxUses) return COUPON_MESSAGES.usedUp;
  return null;
}
