import { Refusal } from "#app/domain/refusal";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bookings, coupons, emailOutbox, users } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { blockedTimeSchema } from "#app/domain/blocked-times";
import type { BookingRequest } from "#app/domain/booking-form";
import { studioInstant } from "#app/domain/studio-time";
import { createBlockedTime, removeBlockedTime } from "#app/models/blocked-time.server";
import { HOLD_EXPIRED_REASON } from "#app/domain/holds";
import { getActiveRetainer } from "#app/models/booking.server";
import { sweepExpiredHolds } from "#app/workflows/expire-holds.server";
import { toPublicUser } from "#app/models/user.server";
import { recordSessionPayment } from "#tests/setup/workflow-bookings";
import { type BookingSettings, bookSession } from "#app/workflows/book-session.server";

/**
 * The booking workflow against a real, freshly migrated SQLite file: retainer purchase and
 * drawing, holds running out, and what a hold gives back. (Concurrency is proven through the
 * app's request handler in tests/routes/booking-api.test.ts.)
 */
const SETTINGS: BookingSettings = {
  holdMinutes: 30,
  bufferMinutes: 0,
  appUrl: "https://studio.test",
};
const NOW = studioInstant("2026-12-01", "09:00");
const HOUR = 3_600_000;

let customer: ReturnType<typeof toPublicUser>;
let counter = 0;

beforeEach(() => {
  counter += 1;
  const row = db
    .insert(users)
    .values({
      username: `retainer_${counter}`,
      passwordHash: "x",
      firstName: "Rae",
      lastName: "Tainer",
      phoneNumber: "404-555-0100",
      email: `rae${counter}@example.com`,
    })
    .returning()
    .get();
  customer = toPublicUser(row);
});

function request(overrides: Partial<BookingRequest>): BookingRequest {
  return {
    firstName: "Rae",
    lastName: "Tainer",
    phoneNumber: "404-555-0100",
    email: "rae@example.com",
    stakeholder: "no",
    recordingDate: "2026-12-10",
    recordingTime: "10:00",
    guestCount: 1,
    hoursNeeded: 2,
    isRetainer: false,
    selectedServices: [],
    ...overrides,
  };
}

function pay(booking: { id: number; totalCost: number }, now = NOW) {
  return recordSessionPayment(
    {
      bookingId: booking.id,
      amount: booking.totalCost,
      method: "card",
      transactionId: `test_${booking.id}_${now}`,
      details: { brand: "visa", last4: "4242" },
    },
    now,
    0,
  );
}

/** A unique date per test, so slots never collide across tests sharing the file. */
function day(offset: number) {
  return `2026-12-${String(10 + counter * 2 + offset).padStart(2, "0")}`;
}

describe("retainer package", () => {
  it("costs $999 plus add-ons, opens a 30-day window from its first session and uses its hours", () => {
    const purchase = bookSession(
      customer,
      request({ isRetainer: true, hoursNeeded: 8, recordingDate: day(0) }),
      NOW,
      SETTINGS,
    );
    expect(purchase).toMatchObject({
      totalCost: 999,
      originalCost: 999,
      isRetainer: true,
      retainerStartDate: day(0),
      retainerHoursUsed: 8,
      retainerTotalHours: 8,
      status: "PENDING_PAYMENT",
    });
    const [y, m, d] = day(0).split("-").map(Number);
    const end = new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, (d ?? 1) + 30)).toISOString().slice(0, 10);
    expect(purchase.retainerEndDate).toBe(end);
  });

  it("is only drawn from once paid, then draws the hours left at no hourly charge", () => {
    const purchase = bookSession(
      customer,
      request({ isRetainer: true, hoursNeeded: 3, recordingDate: day(0) }),
      NOW,
      SETTINGS,
    );
    expect(getActiveRetainer(customer.id, NOW)).toBeNull();
    expect(pay(purchase)).toMatchObject({ ok: true, recorded: "now" });
    expect(getActiveRetainer(customer.id, NOW)).toMatchObject({ usedHours: 3, totalHours: 8 });

    // 4 of the 5 hours left: free of hourly charge, so $0 and confirmed at once.
    const drawn = bookSession(
      customer,
      request({ hoursNeeded: 4, recordingDate: day(1), recordingTime: "12:00" }),
      NOW,
      SETTINGS,
    );
    expect(drawn).toMatchObject({
      totalCost: 0,
      status: "CONFIRMED",
      retainerBookingId: purchase.id,
      retainerHoursDrawn: 4,
    });

    // 1 hour left: a 3-hour session draws it and bills 2 hours at $200.
    const partly = bookSession(
      customer,
      request({ hoursNeeded: 3, recordingDate: day(1), recordingTime: "18:00" }),
      NOW,
      SETTINGS,
    );
    expect(partly).toMatchObject({ totalCost: 400, retainerHoursDrawn: 1 });
    expect(getActiveRetainer(customer.id, NOW)).toBeNull();

    // The unpaid one runs out of time: its hour goes back to the package.
    sweepExpiredHolds(NOW + 31 * 60_000);
    expect(getActiveRetainer(customer.id, NOW)).toMatchObject({ usedHours: 7 });
  });

  it("is not drawn from outside its window", () => {
    const purchase = bookSession(
      customer,
      request({ isRetainer: true, hoursNeeded: 2, recordingDate: day(0) }),
      NOW,
      SETTINGS,
    );
    pay(purchase);
    const later = bookSession(
      customer,
      request({ hoursNeeded: 2, recordingDate: "2027-02-20" }),
      NOW,
      SETTINGS,
    );
    expect(later).toMatchObject({ totalCost: 400, retainerHoursDrawn: 0 });
  });
});

describe("payment holds", () => {
  it("blocks the slot while live, then is cancelled and gives back slot and coupon", () => {
    const code = `HOLD${counter}`;
    db.insert(coupons).values({ code, type: "PERCENTAGE", value: 10, maxUses: 1 }).run();
    const held = bookSession(
      customer,
      request({ recordingDate: day(0), couponCode: code }),
      NOW,
      SETTINGS,
    );
    expect(held.holdExpiresAt).toBe(NOW + 30 * 60_000);
    expect(held.totalCost).toBe(360);
    const couponUses = () =>
      db.select().from(coupons).where(eq(coupons.code, code)).get()?.currentUses;
    expect(couponUses()).toBe(1);

    // One minute before the hold ends the slot is still taken.
    expect(() =>
      bookSession(customer, request({ recordingDate: day(0) }), NOW + 29 * 60_000, SETTINGS),
    ).toThrow(Refusal);

    const later = NOW + 30 * 60_000;
    const again = bookSession(
      customer,
      request({ recordingDate: day(0), couponCode: code }),
      later,
      SETTINGS,
    );
    expect(again.couponCode).toBe(code);
    expect(couponUses()).toBe(1);
    const old = db.select().from(bookings).where(eq(bookings.id, held.id)).get();
    expect(old).toMatchObject({ status: "CANCELLED", cancellationReason: HOLD_EXPIRED_REASON });
    // Paying the expired one now is refused: its slot went to someone else.
    expect(pay(held, later + HOUR).ok).toBe(false);
  });

  it("writes the booking-received e-mail with the pay link in the same transaction", () => {
    const booking = bookSession(customer, request({ recordingDate: day(0) }), NOW, SETTINGS);
    const mail = db.select().from(emailOutbox).where(eq(emailOutbox.bookingId, booking.id)).all();
    expect(mail).toHaveLength(1);
    expect(mail[0]?.kind).toBe("booking-received");
    expect(mail[0]?.text).toContain(`https://studio.test/checkout/${booking.id}`);
  });

  it("writes nothing when the slot is taken", () => {
    bookSession(customer, request({ recordingDate: day(0) }), NOW, SETTINGS);
    const before = db.select().from(bookings).all().length;
    const mails = db.select().from(emailOutbox).all().length;
    expect(() =>
      bookSession(
        customer,
        request({ recordingDate: day(0), recordingTime: "11:00" }),
        NOW,
        SETTINGS,
      ),
    ).toThrow(/conflicts with an existing booking/);
    expect(db.select().from(bookings).all()).toHaveLength(before);
    expect(db.select().from(emailOutbox).all()).toHaveLength(mails);
  });
});

describe("blocked times", () => {
  it("refuse the booking over a block, not only the availability answer; removing frees it", () => {
    const date = day(0);
    const range = blockedTimeSchema(NOW).parse({
      startDate: date,
      startTime: "11:00",
      endDate: date,
      endTime: "12:30",
      reason: "Maintenance",
    });
    const { block } = writeTransaction((tx) => createBlockedTime(tx, range, customer.id, NOW));
    expect(() => bookSession(customer, request({ recordingDate: date }), NOW, SETTINGS)).toThrow(
      /conflicts/,
    );

    expect(writeTransaction((tx) => removeBlockedTime(tx, block.id))).toBe(true);
    const booked = bookSession(customer, request({ recordingDate: date }), NOW, SETTINGS);
    expect(booked.status).toBe("PENDING_PAYMENT");
  });
});
