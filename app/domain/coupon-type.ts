/** db/schema.ts builds its column and CHECK constraint from this list. */
export const COUPON_TYPES = ["PERCENTAGE", "FIXED_AMOUNT"] as const;
export type CouponType = (typeof COUPON_TYPES)[number];

export const COUPON_TYPE_LABELS: Record<CouponType, string> = {
  PERCENTAGE: "Percentage",
  FIXED_AMOUNT: "Fixed amount",
};
