import {
  and,
  desc,
  eq,
  getTableColumns,
  gt,
  isNotNull,
  lt,
  ne,
  notExists,
  type SQL,
  sql,
} from "drizzle-orm";
import { bookings, coupons, orders } from "#db/schema";
import { db, isUniqueViolation, type Tx, unlessBusy } from "#app/db.server";
import {
  COUPON_MESSAGES,
  couponProblem,
  couponRefusalMessage,
  duplicateCouponMessage,
  type NewCoupon,
  normalizeCouponCode,
} from "#app/domain/coupons";
import type { CouponTerms } from "#app/domain/pricing";
import { Refusal } from "#app/domain/refusal";
import { studioDateOf } from "#app/domain/studio-time";
import { bookingsAs, holdExpiredWhere, keepsSlotWhere } from "#app/models/holds.server";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";

export type Coupon = typeof coupons.$inferSelect;
type Reader = Pick<typeof db, "select">;

const expired = bookingsAs("expired_hold");
const keeper = bookingsAs("keeper");

/** Less the uses the sweep will give back (domain/holds.ts): orders only expired holds carry. */
function currentUsesAt(now: number): SQL<number> {
  const stillCarried = db
    .select({ id: keeper.id })
    .from(keeper)
    .where(
      and(eq(keeper.orderId, orders.id), isNotNull(keeper.couponId), keepsSlotWhere(now, keeper)),
    );
  const releasing = db
    .select({ orders: sql`count(distinct ${orders.id})` })
    .from(expired)
    .innerJoin(orders, eq(orders.id, expired.orderId))
    .where(
      and(eq(orders.couponId, coupons.id), holdExpiredWhere(now, expired), notExists(stillCarried)),
    );
  return sql<number>`(${coupons.currentUses} - (${releasing}))`;
}

const couponColumnsAt = (now: number) => ({
  ...getTableColumns(coupons),
  currentUses: currentUsesAt(now),
});

export function findCoupon(reader: Reader, code: string, now: number): Coupon | undefined {
  return reader
    .select(couponColumnsAt(now))
    .from(coupons)
    .where(sql`lower(${coupons.code}) = lower(${normalizeCouponCode(code)})`)
    .get();
}

export type CouponCheck =
  | { isValid: true; message: string; coupon: Coupon }
  | { isValid: false; message: string; coupon: null };

export function checkCoupon(code: string, now: number): CouponCheck {
  if (normalizeCouponCode(code) === "") {
    return { isValid: false, message: COUPON_MESSAGES.required, coupon: null };
  }
  const coupon = findCoupon(db, code, now);
  const problem = couponProblem(coupon, studioDateOf(now));
  return problem || !coupon
    ? { isValid: false, message: couponRefusalMessage(problem ?? "notFound"), coupon: null }
    : { isValid: true, message: COUPON_MESSAGES.valid, coupon };
}

export function couponTerms(coupon: Pick<Coupon, "type" | "value">): CouponTerms {
  return { type: coupon.type, value: coupon.value };
}

/** The guarded increment is the atomic reservation (a CHECK constraint backs it up). */
export function reserveCouponUse(tx: Tx, couponId: number): boolean {
  const reserved = tx
    .update(coupons)
    .set({ currentUses: sql`${coupons.currentUses} + 1` })
    .where(
      and(
        eq(coupons.id, couponId),
        sql`(${coupons.maxUses} = 0 OR ${coupons.currentUses} < ${coupons.maxUses})`,
      ),
    )
    .run();
  return reserved.changes === 1;
}

/** Once per order, however many sessions it had. */
export function releaseOrderCouponUse(tx: Tx, orderId: number | null) {
  if (orderId === null) return;
  const order = tx
    .select({ couponId: orders.couponId })
    .from(orders)
    .where(eq(orders.id, orderId))
    .get();
  if (!order || order.couponId === null) return;
  const stillDiscounted = tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.orderId, orderId),
        ne(bookings.status, "CANCELLED"),
        isNotNull(bookings.couponId),
      ),
    )
    .get();
  if (stillDiscounted) return;
  const released = tx
    .update(orders)
    .set({ couponId: null })
    .where(and(eq(orders.id, orderId), isNotNull(orders.couponId)))
    .run();
  if (released.changes === 1) {
    tx.update(coupons)
      .set({ currentUses: sql`${coupons.currentUses} - 1` })
      .where(and(eq(coupons.id, order.couponId), gt(coupons.currentUses, 0)))
      .run();
  }
}

/** A session reinstated after its hold ran out takes its order's coupon use back, if left. */
export function retakeOrderCouponUse(
  tx: Tx,
  booking: { couponId: number | null; orderId: number | null },
): boolean {
  if (booking.couponId === null || booking.orderId === null) return true;
  const order = tx
    .select({ id: orders.id, couponId: orders.couponId })
    .from(orders)
    .where(eq(orders.id, booking.orderId))
    .get();
  if (!order) return false;
  if (order.couponId !== null) return true;
  if (!reserveCouponUse(tx, booking.couponId)) return false;
  tx.update(orders).set({ couponId: booking.couponId }).where(eq(orders.id, order.id)).run();
  return true;
}

/** docs/product.md "The JSON API": the validation response's shape. */
export function toCouponSummary(coupon: Coupon) {
  return { code: coupon.code, value: coupon.value, type: coupon.type };
}

// ---------------------------------------------------------------- the Coupons tab (admin)

/** The unique index on lower(code) decides, so two admins creating the same code get one coupon and one "duplicate-coupon" Refusal. */
export function createCoupon(coupon: NewCoupon, now: number): Coupon {
  try {
    return unlessBusy(() =>
      db
        .insert(coupons)
        .values({ ...coupon, currentUses: 0, createdAt: now })
        .returning()
        .get(),
    );
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new Refusal("duplicate-coupon", duplicateCouponMessage(coupon.code));
    }
    throw error;
  }
}

/** One page plus one row (no count of the whole table). */
export function listCoupons(now: number, page: number, size?: number): Page<Coupon> {
  const { limit, offset } = pageWindow(page, size);
  const rows = db
    .select(couponColumnsAt(now))
    .from(coupons)
    .orderBy(desc(coupons.id))
    .limit(limit)
    .offset(offset)
    .all();
  return toPage(rows, page, size);
}

export function couponsAfter(now: number, afterId: number | null, limit: number): Coupon[] {
  return db
    .select(couponColumnsAt(now))
    .from(coupons)
    .where(afterId === null ? undefined : lt(coupons.id, afterId))
    .orderBy(desc(coupons.id))
    .limit(limit)
    .all();
}

/** docs/product.md "States and transitions". */
export function setCouponActive(id: number, isActive: boolean): Coupon | undefined {
  return unlessBusy(() =>
    db.update(coupons).set({ isActive }).where(eq(coupons.id, id)).returning().get(),
  );
}
