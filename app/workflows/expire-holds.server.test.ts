import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookingHistory, coupons } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { HOLD_EXPIRED_REASON } from "#app/domain/holds";
import { SLOT_TAKEN_SINCE } from "#app/domain/payments";
import { studioInstant } from "#app/domain/studio-time";
import { createBlockedTime } from "#app/models/blocked-time.server";
import { getBooking } from "#app/models/booking.server";
import { bookSession } from "#app/workflows/book-session.server";
import { expireHolds, sweepExpiredHolds } from "#app/workflows/expire-holds.server";
import { createCoupon } from "#tests/factories/catalog";
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
    expect(paid).toMatchObject({ outcome: "paid", booking: { status: "PENDING" } });
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
    expect(late).toMatchObject({ outcome: "not-payable", reason: SLOT_TAKEN_SINCE });
    expect(getBooking(db, held.id)?.status).toBe("PENDING_PAYMENT");
  });
});
