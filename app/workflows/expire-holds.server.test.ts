import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookingHistory, coupons } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { HOLD_EXPIRED_REASON } from "#app/domain/holds";
import { SLOT_TAKEN_SINCE } from "#app/domain/payments";
import { studioInstant } from "#app/domain/studio-time";
import { createBlockedTime } from "#app/models/blocked-time.server";
import { getActiveRetainer, getBooking, listOwnBookings } from "#app/models/booking.server";
import { findCoupon, listCoupons } from "#app/models/coupon.server";
import { bookSession } from "#app/workflows/book-session.server";
import { expireHolds, sweepExpiredHolds } from "#app/workflows/expire-holds.server";
import { createBooking } from "#tests/factories/booking";
import { createCoupon } from "#tests/factories/catalog";
import { createUser } from "#tests/factories/user";
import {
  BOOKED_AT,
  MINUTE,
  makeUser,
  recordSessionPayment,
  request,
  SETTINGS,
} from "#tests/setup/workflow-bookings";

/**
 * The expiry of holds against a real, freshly migrated SQLite file: only the sweep (and a
 * booking, first in its own transaction) writes it; until then a late payment still meets
 * every rule of a lapsed hold (tests/invariants/FINDINGS.md, finding 8).
 */
const AFTER_HOLD = BOOKED_AT + (SETTINGS.holdMinutes + 1) * MINUTE;
const usesOf = (id: number) =>
  db.select({ n: coupons.currentUses }).from(coupons).where(eq(coupons.id, id)).get()?.n;
const historyOf = (id: number) =>
  db.select().from(bookingHistory).where(eq(bookingHistory.bookingId, id)).all();

describe("the sweep", () => {
  it("cancels an expired hold once, gives back its coupon use and writes its history", () => {
    const customer = makeUser("sweep");
    const coupon = createCoupon(db, { maxUses: 1 });
    const held = bookSession(customer, request({ couponCode: coupon.code }), BOOKED_AT, SETTINGS);
    expect(sweepExpiredHolds(BOOKED_AT + MINUTE)).toBe(0);
    expect(getBooking(db, held.id)?.status).toBe("PENDING_PAYMENT");

    expect(sweepExpiredHolds(AFTER_HOLD)).toBe(1);
    expect(getBooking(db, held.id)).toMatchObject({
      status: "CANCELLED",
      cancellationReason: HOLD_EXPIRED_REASON,
      cancelledAt: AFTER_HOLD,
      holdExpiresAt: null,
    });
    expect(usesOf(coupon.id)).toBe(0);
    expect(historyOf(held.id).at(-1)).toMatchObject({
      fromStatus: "PENDING_PAYMENT",
      toStatus: "CANCELLED",
      note: HOLD_EXPIRED_REASON,
    });
    expect(writeTransaction((tx) => expireHolds(tx, AFTER_HOLD))).toBe(0);
  });
});

describe("a late payment on an expired hold the sweep has not reached", () => {
  const card = (bookingId: number, amount: number) => ({
    bookingId,
    amount,
    method: "card",
    transactionId: `pi_late_${bookingId}`,
    details: { brand: "visa", last4: "4242" },
  });

  it("is taken while its slot is still free, keeping the coupon use it holds", () => {
    const customer = makeUser("late");
    const coupon = createCoupon(db, { maxUses: 1 });
    const held = bookSession(customer, request({ couponCode: coupon.code }), BOOKED_AT, SETTINGS);
    const paid = recordSessionPayment(card(held.id, held.totalCost), AFTER_HOLD);
    expect(paid).toMatchObject({ ok: true, recorded: "now", booking: { status: "PENDING" } });
    expect(usesOf(coupon.id)).toBe(1);
  });

  it("is refused once its slot was taken, and leaves the hold for the sweep", () => {
    const customer = makeUser("blocked");
    const held = bookSession(customer, request(), BOOKED_AT, SETTINGS);
    writeTransaction((tx) =>
      createBlockedTime(
        tx,
        {
          startsAt: studioInstant(held.recordingDate, "09:00"),
          endsAt: studioInstant(held.recordingDate, "18:00"),
          reason: "Maintenance",
        },
        customer.id,
        AFTER_HOLD,
      ),
    );
    const late = recordSessionPayment(card(held.id, held.totalCost), AFTER_HOLD);
    expect(late).toMatchObject({ ok: false, reason: SLOT_TAKEN_SINCE });
    expect(getBooking(db, held.id)?.status).toBe("PENDING_PAYMENT");
  });
});

describe("what an expired hold took, as reads count it before the sweep writes it", () => {
  const NOW = Date.UTC(2030, 0, 1, 12);

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

    expect(getActiveRetainer(user.id, NOW)).toMatchObject({ usedHours: 6, totalHours: 8 });
    expect(retainerRow()).toBe(6);
    expect(getActiveRetainer(user.id, NOW - 2 * MINUTE)).toBeNull();

    sweepExpiredHolds(NOW);
    expect(getActiveRetainer(user.id, NOW)).toMatchObject({ usedHours: 6 });
    expect(retainerRow()).toBe(6);
  });
});
