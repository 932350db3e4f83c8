import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bookings, emailOutbox } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingRequest } from "#app/domain/booking-form";
import type { PublicUser } from "#app/domain/user";
import {
  BookingError,
  type BookingSettings,
  bookSession,
} from "#app/workflows/book-session.server";
import { recordSessionPayment } from "#app/workflows/fulfil-payment.server";
import { rescheduleOwnBooking } from "#app/workflows/reschedule.server";
import {
  SETTINGS as BASE_SETTINGS,
  request as bookingRequest,
  MINUTE,
  makeUser,
  BOOKED_AT as NOW,
} from "#tests/setup/workflow-bookings";

/**
 * Holding the calendar (docs/product.md "Availability and holds"): MAX_UNPAID_HOLDS live unpaid
 * bookings per customer, and no session beyond BOOKING_HORIZON_DAYS.
 */
const SETTINGS: BookingSettings = { ...BASE_SETTINGS, maxUnpaidHolds: 2, horizonDays: 365 };

let customer: PublicUser;

beforeEach(() => {
  customer = makeUser("holder");
});

/** Each booking on its own day of 2027, so slots never collide. */
let slot = 0;
function request(overrides: Partial<BookingRequest> = {}): BookingRequest {
  slot += 1;
  const date = new Date(Date.UTC(2027, 0, 1 + slot)).toISOString().slice(0, 10);
  return bookingRequest({ recordingDate: date, ...overrides });
}

function rowsOf(userId: number) {
  return db.select().from(bookings).where(eq(bookings.userId, userId)).all();
}

function outboxCount() {
  return db.select().from(emailOutbox).all().length;
}

function refusal(run: () => unknown): BookingError {
  try {
    run();
  } catch (error) {
    if (error instanceof BookingError) return error;
    throw error;
  }
  throw new Error("expected a BookingError");
}

describe("MAX_UNPAID_HOLDS", () => {
  it("books at N-1 open holds, refuses at N with the open ones, and writes nothing", () => {
    const first = bookSession(customer, request(), NOW, SETTINGS);
    const second = bookSession(customer, request(), NOW, SETTINGS);
    expect([first.status, second.status]).toEqual(["PENDING_PAYMENT", "PENDING_PAYMENT"]);

    const emails = outboxCount();
    const error = refusal(() => bookSession(customer, request(), NOW, SETTINGS));
    expect(error.kind).toBe("unpaid-holds");
    expect(error.message).toContain("pay for or cancel");
    expect(error.openHolds.map((hold) => hold.id)).toEqual([first.id, second.id]);
    expect(rowsOf(customer.id)).toHaveLength(2);
    expect(outboxCount()).toBe(emails);
  });

  it("does not count a hold that has run out", () => {
    bookSession(customer, request(), NOW, SETTINGS);
    bookSession(customer, request(), NOW + 10 * MINUTE, SETTINGS);
    // 31 minutes on, the first hold ran out: one open hold, so one more fits.
    const later = NOW + 31 * MINUTE;
    expect(bookSession(customer, request(), later, SETTINGS).status).toBe("PENDING_PAYMENT");
    expect(refusal(() => bookSession(customer, request(), later, SETTINGS)).kind).toBe(
      "unpaid-holds",
    );
  });

  it("does not count a paid booking", () => {
    const paid = bookSession(customer, request(), NOW, SETTINGS);
    const outcome = recordSessionPayment(
      {
        bookingId: paid.id,
        amount: paid.totalCost,
        method: "card",
        transactionId: `holds_${paid.id}`,
        details: { brand: "visa", last4: "4242" },
      },
      NOW,
      0,
    );
    expect(outcome.outcome).toBe("paid");
    bookSession(customer, request(), NOW, SETTINGS);
    expect(bookSession(customer, request(), NOW, SETTINGS).status).toBe("PENDING_PAYMENT");
  });

  it("counts only the customer's own holds", () => {
    bookSession(customer, request(), NOW, SETTINGS);
    bookSession(customer, request(), NOW, SETTINGS);
    const mine = customer;
    const other = makeUser("other");
    expect(bookSession(other, request(), NOW, SETTINGS).userId).toBe(other.id);
    expect(rowsOf(mine.id)).toHaveLength(2);
  });
});

describe("BOOKING_HORIZON_DAYS", () => {
  it("books exactly at the horizon and refuses the day after, writing nothing", () => {
    // Today in the studio is 2026-12-01: the horizon is 2027-12-01.
    const atHorizon = bookSession(customer, request({ recordingDate: "2027-12-01" }), NOW, {
      ...SETTINGS,
      maxUnpaidHolds: 10,
    });
    expect(atHorizon.recordingDate).toBe("2027-12-01");
    const error = refusal(() =>
      bookSession(customer, request({ recordingDate: "2027-12-02" }), NOW, SETTINGS),
    );
    expect(error.kind).toBe("horizon");
    expect(error.message).toBe(
      "Sessions can be booked up to 2027-12-01. Please choose an earlier date.",
    );
    expect(rowsOf(customer.id)).toHaveLength(1);
  });

  it("refuses a reschedule beyond the horizon and leaves the session where it was", () => {
    const booking = bookSession(customer, request(), NOW, SETTINGS);
    recordSessionPayment(
      {
        bookingId: booking.id,
        amount: booking.totalCost,
        method: "card",
        transactionId: `horizon_${booking.id}`,
        details: { brand: "visa", last4: "4242" },
      },
      NOW,
      0,
    );
    const settings = { bufferMinutes: 0, appUrl: "https://studio.test", horizonDays: 365 };
    const move = { bookingId: booking.id, userId: customer.id, recordingTime: "15:00" };
    expect(() =>
      rescheduleOwnBooking({ ...move, recordingDate: "2027-12-02" }, NOW, settings),
    ).toThrow("Sessions can be booked up to 2027-12-01");
    expect(rowsOf(customer.id)[0]?.recordingDate).toBe(booking.recordingDate);
    const moved = rescheduleOwnBooking({ ...move, recordingDate: "2027-12-01" }, NOW, settings);
    expect(moved.recordingDate).toBe("2027-12-01");
  });
});
