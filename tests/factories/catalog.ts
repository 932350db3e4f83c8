import { coupons, services } from "#db/schema";
import { type FactoryDb, uniqueTail } from "#tests/factories/database";

type NewCoupon = typeof coupons.$inferInsert;
export type Coupon = typeof coupons.$inferSelect;

/** value: whole percent for PERCENTAGE, cents for FIXED_AMOUNT (as the table keeps them). */
export type CouponInput = Partial<NewCoupon>;

/** An active, unlimited coupon valid through 2099 unless told otherwise; 10% off by default. */
export function createCoupon(db: FactoryDb, input: CouponInput = {}): Coupon {
  const type = input.type ?? "PERCENTAGE";
  const value = input.value ?? 10;
  const tail = uniqueTail()
    .replace(/[^A-Za-z0-9]/g, "")
    .toUpperCase();
  return db
    .insert(coupons)
    .values({
      code: `TEST${tail}`,
      description: `test ${type} ${value}`,
      ...input,
      type,
      value,
    })
    .returning()
    .get();
}

type NewService = typeof services.$inferInsert;
export type Service = typeof services.$inferSelect;

export type ServiceInput = Partial<NewService>;

/** An active add-on service; price in whole dollars, $50 by default. */
export function createService(db: FactoryDb, input: ServiceInput = {}): Service {
  const name = input.name ?? `Service ${uniqueTail()}`;
  return db
    .insert(services)
    .values({ description: `${name} for your session`, price: 50, ...input, name })
    .returning()
    .get();
}
