import { sql } from "drizzle-orm";
import { coupons } from "../../db/schema";
import { db } from "../db.server";
import { COUPON_MESSAGES, couponProblem, normalizeCouponCode } from "../domain/coupons";
import type { CouponTerms } from "../domain/pricing";
import { studioDateOf } from "../domain/studio-time";

export type Coupon = typeof coupons.$inferSelect;
type Reader = Pick<typeof db, "select">;

export function findCoupon(code: string, reader: Reader = db): Coupon | undefined {
  return reader
    .select()
    .from(coupons)
    .where(sql`lower(${coupons.code}) = lower(${normalizeCouponCode(code)})`)
    .get();
}

export type CouponCheck =
  | { isValid: true; message: string; coupon: Coupon }
  | { isValid: false; message: string; coupon: null };

/** Whether `code` can be redeemed now; the answer of GET /api/coupons/validate/{code}. */
export function checkCoupon(code: string, now: number, reader: Reader = db): CouponCheck {
  if (normalizeCouponCode(code) === "") {
    return { isValid: false, message: COUPON_MESSAGES.required, coupon: null };
  }
  const coupon = findCoupon(code, reader);
  const problem = couponProblem(coupon, studioDateOf(now));
  return problem || !coupon
    ? { isValid: false, message: problem ?? COUPON_MESSAGES.notFound, coupon: null }
    : { isValid: true, message: COUPON_MESSAGES.valid, coupon };
}

export function couponTerms(coupon: Pick<Coupon, "type" | "value">): CouponTerms {
  return { type: coupon.type, value: coupon.value };
}

/** The coupon as the spec's validation response shows it: {code, value, type}. */
export function toCouponSummary(coupon: Coupon) {
  return { code: coupon.code, value: coupon.value, type: coupon.type };
}
