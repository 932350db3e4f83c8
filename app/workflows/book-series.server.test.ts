import { Refusal, type UnpaidHoldsRefusal, SeriesConflictsRefusal } from "#app/domain/refusal";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bookingHistory, bookings, coupons, emailOutbox, orders } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingRequest } from "#app/domain/booking-form";
import { SERIES_MESSAGES } from "#app/domain/series";
import type { SeriesRepeatRequest } from "#app/domain/series-form";
import { addStudioDays } from "#app/domain/studio-time";
import type { PublicUser } from "#app/domain/user";
import { getBooking, openUnpaidHolds } from "#app/models/booking.server";
import { type BookingSettings, bookSession } from "#app/workflows/book-session.server";
import { bookSeries, previewSeries } from "#app/workflows/book-series.server";
import { createCoupon } from "#tests/factories/catalog";
import {
  BOOKED_AT as NOW,
  SETTINGS,
  makeUser,
  paidBooking,
  request as bookingRequest,
} from "#tests/setup/workflow-bookings";

/**
 * Booking a weekly series (docs/product.md "Weekly series") against a real SQLite file: every
 * session or none, priced per session, the coupon used once, retainer hours in date order and
 * one unpaid hold for the whole series, each of its unpaid sessions counted under
 * MAX_UNPAID_SESSIONS. (The race of two series is proven against two server
 * processes in tests/integration/series-booking.test.ts.)
 */
let customer: PublicUser;
beforeEach(() => {
  customer = makeUser("series");
});

// Each test's series starts on a Monday of its own, far from the others' weeks.
let firstDate = "2027-01-04";
function request(overrides: Partial<BookingRequest> = {}): BookingRequest {
  firstDate = addStudioDays(firstDate, 140);
  return bookingRequest({ recordingDate: firstDate, recordingTime: "19:00", ...overrides });
}
const weekly = (count: number, skip: string[] = []): SeriesRepeatRequest => ({
  every: "week",
  count,
  skip,
});

function rowsOf(userId: number) {
  return db.select().from(bookings).where(eq(bookings.userId, userId)).all();
}
const outboxCount = () => db.select().from(emailOutbox).all().length;
const seriesCount = () => db.select().from(orders).all().length;

function refusal(run: () => unknown): Refusal {
  try {
    run();
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error("expected a Refusal");
}

/** Nothing new anywhere: no series, no booking, no mail. */
function expectNothingWritten(run: () => unknown): Refusal {
  const before = { series: seriesCount(), mail: outboxCount(), rows: rowsOf(customer.id).length };
  const error = refusal(run);
  expect({
    series: seriesCount(),
    mail: outboxCount(),
    rows: rowsOf(customer.id).length,
  }).toEqual(before);
  return error;
}

describe("bookSeries", () => {
  it("writes every session with the series' id, one history line each and one e-mail", () => {
    const wanted = request();
    const series = bookSeries(
      customer,
      wanted,
      { every: "2weeks", count: 3, skip: [] },
      NOW,
      SETTINGS,
    );
    expect(series.bookings.map((booking) => booking.recordingDate)).toEqual([
      wanted.recordingDate,
      addStudioDays(wanted.recordingDate, 14),
      addStudioDays(wanted.recordingDate, 28),
    ]);
    for (const booking of series.bookings) {
      expect(booking).toMatchObject({
        orderId: series.seriesId,
        recordingTime: "19:00",
        status: "PENDING_PAYMENT",
        totalCost: 400,
        holdExpiresAt: NOW + SETTINGS.holdMinutes * 60_000,
      });
      const history = db
        .select()
        .from(bookingHistory)
        .where(eq(bookingHistory.bookingId, booking.id))
        .all();
      expect(history).toHaveLength(1);
    }
    const row = db.select().from(orders).where(eq(orders.id, series.seriesId)).get();
    expect(row).toMatchObject({ userId: customer.id, repeatEvery: "2weeks", occurrences: 3 });

    const mails = db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.bookingId, series.bookings[0]?.id ?? 0))
      .all();
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail?.subject).toBe("Complete your booking: pay $1,200.00 to keep your 3 sessions");
    expect(mail?.text).toContain(`https://t.test/checkout/series/${series.seriesId}`);
    for (const [i] of series.bookings.entries())
      expect(mail?.text).toContain(`Session ${i + 1} of 3`);
  });

  it("refuses the whole series when one session is taken, naming the nearest free times", () => {
    const wanted = request();
    const taken = addStudioDays(wanted.recordingDate, 7);
    const other = makeUser("other");
    bookSession(
      other,
      bookingRequest({ recordingDate: taken, recordingTime: "18:00", hoursNeeded: 4 }),
      NOW,
      SETTINGS,
    );
    const error = expectNothingWritten(() =>
      bookSeries(customer, wanted, weekly(3), NOW, SETTINGS),
    );
    expect(error).toBeInstanceOf(SeriesConflictsRefusal);
    expect(error.message).toBe(SERIES_MESSAGES.conflicts);
    expect((error as SeriesConflictsRefusal).conflicts).toEqual([
      { recordingDate: taken, alternatives: ["16:00", "22:00", "15:00"] },
    ]);
    // The preview shows the same, and leaving the taken date out books the rest.
    expect(previewSeries(wanted, weekly(3), NOW, SETTINGS).map((check) => check.problem)).toEqual([
      null,
      "taken",
      null,
    ]);
    const series = bookSeries(customer, wanted, weekly(3, [taken]), NOW, SETTINGS);
    expect(series.bookings.map((booking) => booking.recordingDate)).toEqual([
      wanted.recordingDate,
      addStudioDays(wanted.recordingDate, 14),
    ]);
  });

  it("refuses dates left out that are not the series', fewer than two sessions, and a retainer", () => {
    const wanted = request();
    expect(
      expectNothingWritten(() =>
        bookSeries(customer, wanted, weekly(2, ["2020-01-01"]), NOW, SETTINGS),
      ).message,
    ).toBe(SERIES_MESSAGES.skip);
    expect(
      expectNothingWritten(() =>
        bookSeries(customer, wanted, weekly(2, [wanted.recordingDate]), NOW, SETTINGS),
      ).message,
    ).toBe(SERIES_MESSAGES.tooFewLeft);
    expect(
      expectNothingWritten(() =>
        bookSeries(customer, { ...wanted, isRetainer: true }, weekly(2), NOW, SETTINGS),
      ).message,
    ).toBe(SERIES_MESSAGES.retainer);
  });

  it("refuses a series whose last session is past the horizon", () => {
    const today = "2026-12-01";
    const wanted = bookingRequest({
      recordingDate: addStudioDays(today, 20),
      recordingTime: "19:00",
    });
    const error = expectNothingWritten(() =>
      bookSeries(customer, wanted, weekly(3), NOW, { ...SETTINGS, horizonDays: 30 }),
    );
    expect(error.kind).toBe("horizon");
    expect(error.message).toBe(
      `Sessions can be booked up to ${addStudioDays(today, 30)}. Please choose an earlier date.`,
    );
  });

  it("refuses a first session inside 48 hours", () => {
    const wanted = bookingRequest({ recordingDate: "2026-12-02", recordingTime: "19:00" });
    const error = expectNothingWritten(() =>
      bookSeries(customer, wanted, weekly(2), NOW, SETTINGS),
    );
    expect((error as SeriesConflictsRefusal).conflicts).toEqual([
      { recordingDate: "2026-12-02", alternatives: [] },
    ]);
  });

  it("counts as one unpaid hold, and a full hold cap refuses it whole", () => {
    const settings: BookingSettings = { ...SETTINGS, maxUnpaidHolds: 2 };
    const series = bookSeries(customer, request(), weekly(4), NOW, settings);
    const holds = db.transaction((tx) => openUnpaidHolds(tx, customer.id, NOW));
    expect(holds).toEqual([
      {
        id: series.bookings[0]?.id,
        recordingDate: series.bookings[0]?.recordingDate,
        recordingTime: "19:00",
        seriesId: series.seriesId,
      },
    ]);
    // Room for one more hold: a single session takes it.
    const single = bookSession(customer, request(), NOW, settings);
    const error = expectNothingWritten(() =>
      bookSeries(customer, request(), weekly(2), NOW, settings),
    );
    expect(error.kind).toBe("unpaid-holds");
    expect((error as UnpaidHoldsRefusal).openHolds.map((hold) => hold.id)).toEqual([
      series.bookings[0]?.id,
      single.id,
    ]);
  });

  it("counts each unpaid session under MAX_UNPAID_SESSIONS, not those a retainer covers", () => {
    // A retainer bought with a 2-hour session: 6 hours left, which cover the first 4-hour
    // session whole (confirmed) and part of the second; three sessions wait for payment.
    const retainerDate = "2026-12-08";
    paidBooking(customer, {
      isRetainer: true,
      hoursNeeded: 2,
      recordingDate: retainerDate,
      recordingTime: "08:00",
    });
    const wanted = bookingRequest({
      recordingDate: addStudioDays(retainerDate, 1),
      recordingTime: "19:00",
      hoursNeeded: 4,
    });
    const settings: BookingSettings = { ...SETTINGS, maxUnpaidSessions: 3 };
    const series = bookSeries(customer, wanted, weekly(4), NOW, settings);
    expect(series.bookings.map((b) => b.status)).toEqual([
      "CONFIRMED",
      "PENDING_PAYMENT",
      "PENDING_PAYMENT",
      "PENDING_PAYMENT",
    ]);
    // Three unpaid sessions held: at the cap, a single session is refused.
    const error = expectNothingWritten(() => bookSession(customer, request(), NOW, settings));
    expect(error.kind).toBe("unpaid-holds");
    expect(error.message).toMatch(/^You already have 3 unpaid sessions waiting for payment: /);
    expect((error as UnpaidHoldsRefusal).openHolds.map((hold) => hold.seriesId)).toEqual([
      series.seriesId,
    ]);
  });

  it("uses a percentage coupon once, off every session", () => {
    const coupon = createCoupon(db, { type: "PERCENTAGE", value: 10, maxUses: 1 });
    const series = bookSeries(
      customer,
      request({ couponCode: coupon.code }),
      weekly(3),
      NOW,
      SETTINGS,
    );
    expect(series.bookings.map((b) => [b.totalCost, b.discountAmount, b.couponCode])).toEqual([
      [360, 40, coupon.code],
      [360, 40, coupon.code],
      [360, 40, coupon.code],
    ]);
    // Every session carries the discount; the one use is the order's, given back once.
    expect(series.bookings.map((b) => b.couponId)).toEqual([coupon.id, coupon.id, coupon.id]);
    expect(db.select().from(orders).where(eq(orders.id, series.seriesId)).get()?.couponId).toBe(
      coupon.id,
    );
    expect(db.select().from(coupons).where(eq(coupons.id, coupon.id)).get()?.currentUses).toBe(1);
  });

  it("takes a fixed-amount coupon off the first session only", () => {
    const coupon = createCoupon(db, { type: "FIXED_AMOUNT", value: 5000 });
    const series = bookSeries(
      customer,
      request({ couponCode: coupon.code }),
      weekly(2),
      NOW,
      SETTINGS,
    );
    expect(series.bookings.map((b) => [b.totalCost, b.discountAmount, b.couponCode])).toEqual([
      [350, 50, coupon.code],
      [400, 0, null],
    ]);
  });

  it("refuses a used-up coupon and writes nothing", () => {
    const coupon = createCoupon(db, { type: "PERCENTAGE", value: 10, maxUses: 1, currentUses: 1 });
    const error = expectNothingWritten(() =>
      bookSeries(customer, request({ couponCode: coupon.code }), weekly(2), NOW, SETTINGS),
    );
    expect(error.kind).toBe("coupon-refused");
  });

  it("draws retainer hours in date order, confirming the sessions it covers", () => {
    // A retainer of 8 hours bought with a 2-hour session: 6 left for 30 days.
    const retainerDate = "2026-12-04";
    const retainer = paidBooking(customer, {
      isRetainer: true,
      hoursNeeded: 2,
      recordingDate: retainerDate,
      recordingTime: "08:00",
    });
    const wanted = bookingRequest({
      recordingDate: addStudioDays(retainerDate, 1),
      recordingTime: "19:00",
      hoursNeeded: 4,
    });
    const series = bookSeries(customer, wanted, weekly(3), NOW, SETTINGS);
    expect(series.bookings.map((b) => [b.retainerHoursDrawn, b.totalCost, b.status])).toEqual([
      [4, 0, "CONFIRMED"],
      [2, 400, "PENDING_PAYMENT"],
      [0, 800, "PENDING_PAYMENT"],
    ]);
    expect(getBooking(db, retainer.id)?.retainerHoursUsed).toBe(8);
  });

  it("confirms a series the retainer covers whole and mails that nothing is due", () => {
    const retainerDate = "2026-12-06";
    paidBooking(customer, { isRetainer: true, hoursNeeded: 2, recordingDate: retainerDate });
    const wanted = bookingRequest({
      recordingDate: addStudioDays(retainerDate, 1),
      recordingTime: "19:00",
    });
    const series = bookSeries(customer, wanted, weekly(2), NOW, SETTINGS);
    expect(series.bookings.map((b) => b.status)).toEqual(["CONFIRMED", "CONFIRMED"]);
    const mail = db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.bookingId, series.bookings[0]?.id ?? 0))
      .get();
    expect(mail?.subject).toMatch(/^Your 2 sessions from .* are confirmed$/);
  });
});
