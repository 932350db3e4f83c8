import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { emailOutbox, payments, users } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingRequest } from "#app/domain/booking-form";
import { studioInstant } from "#app/domain/studio-time";
import { getBooking } from "#app/models/booking.server";
import { toPublicUser } from "#app/models/user.server";
import { type BookingSettings, bookSession } from "#app/workflows/book-session.server";
import { RescheduleError, rescheduleOwnBooking } from "#app/workflows/reschedule.server";
import { recordPayment } from "#app/workflows/fulfil-payment.server";

/**
 * A customer moving their own session, against a real, freshly migrated SQLite file: the
 * slot rules, the 24-hour limit, the retainer window, and the e-mail with its calendar file.
 */
const SETTINGS: BookingSettings = { holdMinutes: 30, bufferMinutes: 0, appUrl: "https://t.test" };
const BOOKED_AT = studioInstant("2026-12-01", "09:00");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let customer: ReturnType<typeof toPublicUser>;
let other: ReturnType<typeof toPublicUser>;
let counter = 0;

function makeUser(name: string) {
  counter += 1;
  const row = db
    .insert(users)
    .values({
      username: `${name}_${counter}`,
      passwordHash: "x",
      firstName: "Cam",
      lastName: "Celler",
      phoneNumber: "404-555-0100",
      email: `${name}${counter}@example.com`,
    })
    .returning()
    .get();
  return toPublicUser(row);
}

beforeEach(() => {
  customer = makeUser("mover");
  other = makeUser("other");
});

/** A unique date per test, so slots never collide across tests sharing the file. */
function day(offset = 0) {
  const base = Date.UTC(2026, 11, 10) + (counter * 3 + offset) * DAY;
  return new Date(base).toISOString().slice(0, 10);
}

function request(overrides: Partial<BookingRequest> = {}): BookingRequest {
  return {
    firstName: "Cam",
    lastName: "Celler",
    phoneNumber: "404-555-0100",
    email: "cam@example.com",
    stakeholder: "no",
    recordingDate: day(),
    recordingTime: "10:00",
    guestCount: 1,
    hoursNeeded: 2,
    isRetainer: false,
    selectedServices: [],
    ...overrides,
  };
}

function paidBooking(overrides: Partial<BookingRequest> = {}) {
  const booking = bookSession(customer, request(overrides), BOOKED_AT, SETTINGS);
  const paid = recordPayment(
    {
      bookingId: booking.id,
      amount: booking.totalCost,
      method: "card",
      transactionId: `charge_${booking.id}`,
      details: { brand: "visa", last4: "4242" },
    },
    BOOKED_AT + MINUTE,
    0,
  );
  if (paid.outcome !== "paid") throw new Error("not paid");
  return paid.booking;
}

const outboxFor = (bookingId: number, kind: string) =>
  db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.bookingId, bookingId))
    .all()
    .filter((row) => row.kind === kind);

/** What the customer has paid for a booking, net of refunds. */
const paidFor = (bookingId: number) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .all()
    .reduce((sum, row) => sum + row.amount, 0);

describe("rescheduling", () => {
  const move = (id: number, date: string, time: string, now = BOOKED_AT, userId = customer.id) =>
    rescheduleOwnBooking(
      { bookingId: id, userId, recordingDate: date, recordingTime: time },
      now,
      SETTINGS,
    );

  it("moves a paid session to a free slot of the same length, price and payment unchanged", () => {
    const booking = paidBooking();
    const moved = move(booking.id, day(1), "15:00");
    expect(moved).toMatchObject({
      recordingDate: day(1),
      recordingTime: "15:00",
      startsAt: studioInstant(day(1), "15:00"),
      endsAt: studioInstant(day(1), "17:00"),
      totalCost: booking.totalCost,
      status: "PENDING",
      reminderSentAt: null,
    });
    expect(paidFor(booking.id)).toBe(400);
    const email = outboxFor(booking.id, "booking-rescheduled")[0];
    expect(email?.text).toContain("3:00 PM");
    const calendar = Buffer.from(email?.attachments?.[0]?.content ?? "", "base64").toString();
    const utc = new Date(studioInstant(day(1), "15:00")).toISOString().replace(/[-:]|\.\d+/g, "");
    expect(calendar).toContain(`DTSTART:${utc}`);
  });

  it("may overlap its own current slot", () => {
    const booking = paidBooking();
    expect(move(booking.id, day(), "11:00").startsAt).toBe(studioInstant(day(), "11:00"));
  });

  it("refuses a slot another session holds, and changes nothing", () => {
    const booking = paidBooking();
    paidBooking({ recordingDate: day(1), recordingTime: "12:00" });
    expect(() => move(booking.id, day(1), "11:00")).toThrow(RescheduleError);
    expect(getBooking(booking.id)?.recordingDate).toBe(day());
    expect(outboxFor(booking.id, "booking-rescheduled")).toHaveLength(0);
  });

  it("allows it up to exactly 24 hours before the start, not a minute later", () => {
    const booking = paidBooking();
    expect(() => move(booking.id, day(1), "10:00", booking.startsAt - DAY + MINUTE)).toThrow(
      /24 hours/,
    );
    expect(move(booking.id, day(2), "10:00", booking.startsAt - DAY).recordingDate).toBe(day(2));
  });

  it("keeps the 48-hour notice for the new time", () => {
    const booking = paidBooking({ recordingDate: day(2) });
    const now = studioInstant(day(), "09:00");
    expect(() => move(booking.id, day(1), "08:00", now)).toThrow(
      "Booking must be at least 48 hours in advance",
    );
  });

  it("refuses unpaid bookings and other customers' bookings", () => {
    const unpaid = bookSession(customer, request(), BOOKED_AT, SETTINGS);
    expect(() => move(unpaid.id, day(1), "10:00")).toThrow(/Pay for this booking first/);
    const paid = paidBooking({ recordingDate: day(2) });
    expect(() => move(paid.id, day(1), "10:00", BOOKED_AT, other.id)).toThrow("Booking not found");
  });

  it("keeps a retainer session inside its retainer's window", () => {
    const purchase = paidBooking({ isRetainer: true, hoursNeeded: 2 });
    const outside = purchase.retainerEndDate ?? "";
    expect(() => move(purchase.id, outside, "10:00")).toThrow(/retainer package/);
    expect(move(purchase.id, day(1), "10:00").recordingDate).toBe(day(1));
  });
});
