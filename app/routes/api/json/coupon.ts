import type { z } from "#app/domain/zod";
import type { Coupon } from "#app/models/coupon.server";
import type * as shape from "#app/routes/api/json/shapes";

/** A coupon as GET/POST /api/admin/coupons answer it; expiryDate is the studio day it ends. */
export function toCouponJson(coupon: Coupon): z.infer<typeof shape.couponJson> {
  return {
    id: coupon.id,
    code: coupon.code,
    description: coupon.description,
    type: coupon.type,
    value: coupon.value,
    maxUses: coupon.maxUses,
    currentUses: coupon.currentUses,
    expiryDate: coupon.expiryDate,
    isActive: coupon.isActive,
    createdAt: new Date(coupon.createdAt).toISOString(),
  };
}
