import { and, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingClaim } from "#app/domain/booking-claim";
import type { BookingStatus } from "#app/domain/booking-status";
import { holdExpired, keepsSlot } from "#app/domain/holds";
import { getActiveRetainer, listOwnBookings } from "#app/models/booking.server";
import { findCoupon, listCoupons } from "#app/models/coupon.server";
import { holdExpiredWhere, holdLiveWhere, keepsSlotWhere } from "#app/models/holds.server";
import { sweepExpiredHolds } from "#app/workflows/expire-holds.server";
import { createBooking } from "#tests/factories/booking";
import { createCoupon } from "#tests/factories/catalog";
import { createUser } from "#tests/factories/user";

/**
 * The SQL of domain/holds.ts against a real, freshly migrated SQLite file: it picks the rows
 * the domain's predicate picks, and the reads counting coupon uses and retainer hours count an
 * expired hold's as given back, exactly as the sweep then writes them.
 */
const NOW = Date.UTC(2030, 0, 1, 12);
const MINUTE = 60_000;

describe("the predicates in SQL", () => {
  it("pick the rows the domain's predicates pick", async () => {
    const user = await createUser(db);
    const statuses: BookingStatus[] = ["PENDING_PAYMENT", "CONFIRMED", "CANCELLED"];
    const holds = [null, NOW - MINUTE, NOW, NOW + MINUTE];
    const claims: (BookingClaim | null)[] = [null, "CHECKOUT_OPEN"];
    const rows = statuses.flatMap((status) =>
      holds.flatMap((holdExpiresAt) =>
        claims.map((claim) =>
          createBooking(db, { user, status, holdExpiresAt, claim, claimedAt: claim && NOW }),
        ),
      ),
    );
    const ids = rows.map((row) => row.id);
    const picked = (where: ReturnType<typeof holdExpiredWhere>) =>
      db
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(inArray(bookings.id, ids), where))
        .all()
        .map((row) => row.id)
        .sort((a, b) => a - b);
    const idsOf = (keep: (row: (typeof rows)[number]) => boolean) =>
      rows.filter(keep).map((row) => row.id);

    expect(picked(holdExpiredWhere(NOW))).toEqual(idsOf((row) => holdExpired(row, NOW)));
    expect(picked(keepsSlotWhere(NOW))).toEqual(idsOf((row) => keepsSlot(row, NOW)));
    expect(picked(holdLiveWhere(NOW))).toEqual(
      idsOf((row) => row.status === "PENDING_PAYMENT" && (row.holdExpiresAt ?? 0) > NOW),
    );
  });
});

describe("what an expired hold took, as reads count it", () => {
  it("gives its order's coupon use back unless a session still keeping its slot carries it", async () => {
    const user = await createUser(db);
    const coupon = createCoupon(db, { maxUses: 3, currentUses: 3 });
    const expired = { status: "PENDING_PAYMENT" as const, holdExpiresAt: NOW - MINUTE };
    // An order whose only session ran out: its use goes back.
    createBooking(db, { user, couponId: coupon.id, ...expired });
    // A series with one session run out and one paid: the paid one keeps the use.
    const first = createBooking(db, { user, couponId: coupon.id, ...expired });
    createBooking(db, { user, couponId: coupon.id, orderId: first.orderId, status: "PENDING" });
    // Run out but claimed by a checkout being opened: the sweep leaves it, the use stays.
    createBooking(db, { user, couponId: coupon.id, ...expired, claim: "CHECKOUT_OPEN" });

    expect(findCoupon(db, coupon.code, NOW)?.currentUses).toBe(2);
    expect(listCoupons(NOW, 1).rows.find((row) => row.id === coupon.id)?.currentUses).toBe(2);
    // Before the hold ran out, every use counts.
    expect(findCoupon(db, coupon.code, NOW - 2 * MINUTE)?.currentUses).toBe(3);

    sweepExpiredHolds(NOW);
    expect(findCoupon(db, coupon.code, NOW - 2 * MINUTE)?.currentUses).toBe(2);
    expect(findCoupon(db, coupon.code, NOW)?.currentUses).toBe(2);
  });

  it("gives retainer hours back: the balance and the retainer's row count them so", async () => {
    const user = await createUser(db);
    const retainer = createBooking(db, {
      user,
      date: "2030-01-10",
      hours: 2,
      isRetainer: true,
      retainerStartDate: "2030-01-10",
      retainerEndDate: "2030-02-09",
      retainerTotalHours: 8,
      retainerHoursUsed: 8,
    });
    const draws = { retainerBookingId: retainer.id, date: "2030-01-12" };
    createBooking(db, { user, ...draws, retainerHoursDrawn: 4, status: "CONFIRMED" });
    createBooking(db, {
      user,
      ...draws,
      time: "15:00",
      retainerHoursDrawn: 2,
      status: "PENDING_PAYMENT",
      holdExpiresAt: NOW - MINUTE,
    });
    const retainerRow = () =>
      listOwnBookings(user.id, NOW).find((row) => row.id === retainer.id)?.retainerHoursUsed;

    expect(getActiveRetainer(db, user.id, NOW)).toMatchObject({ usedHours: 6, totalHours: 8 });
    expect(retainerRow()).toBe(6);
    expect(getActiveRetainer(db, user.id, NOW - 2 * MINUTE)).toBeNull();

    sweepExpiredHolds(NOW);
    expect(getActiveRetainer(db, user.id, NOW)).toMatchObject({ usedHours: 6 });
    expect(retainerRow()).toBe(6);
  });
});
