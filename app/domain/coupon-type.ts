/**
 * The two kinds of coupon: a whole percent off, or a fixed amount off in cents. The database's
 * column and CHECK constraint (db/schema.ts) are built from this list.
 */
export const COUPON_TYPES = ["PERCENTAGE", "FIXED_AMOUNT"] as const;
export type CouponType = (typeof COUPON_TYPES)[number];

export const COUPON_TYPE_LABELS: Record<CouponType, string> = {
  PERCENTAGE: "Percentage",
  FIXED_AMOUNT: "Fixed amount",
};
