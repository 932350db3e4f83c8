import { eq } from "drizzle-orm";
import { emailOutbox, users } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingRequest } from "#app/domain/booking-form";
import type { PublicUser } from "#app/domain/user";
import { studioInstant } from "#app/domain/studio-time";
import { toPublicUser } from "#app/models/user.server";
import { type BookingSettings, bookSession } from "#app/workflows/book-session.server";
import { recordPayment } from "#app/workflows/fulfil-payment.server";
import { getBooking } from "#app/models/booking.server";
import type {
  FulfilmentOutcome,
  PaymentOptions,
  PaymentReport,
} from "#app/workflows/apply-payment.server";

/**
 * Bookings for the workflow tests (app/workflows/*.test.ts), on the test file's own freshly
 * migrated SQLite file: customers, a request on a date no other test of the file uses, and a
 * session booked and paid through the real workflows.
 */
export const SETTINGS: BookingSettings = {
  holdMinutes: 30,
  bufferMinutes: 0,
  appUrl: "https://t.test",
};
export const BOOKED_AT = studioInstant("2026-12-01", "09:00");
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

// Vitest gives each test file its own copy of this module, so the count is per file.
let counter = 0;

/** A user with a unique name (a customer unless told). No password: these tests never sign in. */
export function makeUser(
  name: string,
  options: { isAdmin?: boolean; isMember?: boolean } = {},
): PublicUser {
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
      isAdmin: options.isAdmin ?? false,
      isMember: options.isMember ?? false,
    })
    .returning()
    .get();
  return toPublicUser(row);
}

/** A unique date per test (moved on by each new user), so slots never collide in a file. */
export function day(offset = 0) {
  const base = Date.UTC(2026, 11, 10) + (counter * 3 + offset) * DAY;
  return new Date(base).toISOString().slice(0, 10);
}

export function request(overrides: Partial<BookingRequest> = {}): BookingRequest {
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

/** A session of `customer`'s, booked at BOOKED_AT and paid by card a minute later. */
export function paidBooking(customer: PublicUser, overrides: Partial<BookingRequest> = {}) {
  const booking = bookSession(customer, request(overrides), BOOKED_AT, SETTINGS);
  const paid = recordSessionPayment(
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
  if (!paid.ok || paid.recorded !== "now") throw new Error("not paid");
  return paid.booking;
}

/** The outbox rows of one kind about a booking. */
export const outboxFor = (bookingId: number, kind: string) =>
  db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.bookingId, bookingId))
    .all()
    .filter((row) => row.kind === kind);

/**
 * One session paid by one card charge, through the one payment recorder (recordPayment), with
 * the one-booking outcome the workflow tests read.
 */
export function recordSessionPayment(
  report: PaymentReport,
  now: number,
  bufferMinutes = 0,
  options: PaymentOptions = { refuseClaimed: false },
): FulfilmentOutcome {
  const result = recordPayment(
    {
      chargeId: report.transactionId,
      sessions: [{ bookingId: report.bookingId, amount: report.amount }],
      details: report.details,
      ...(report.event ? { event: report.event } : {}),
    },
    now,
    { ...options, allOrNothing: false, bufferMinutes },
  );
  const booking = getBooking(db, report.bookingId);
  const [paid, receipt] = [result.paid[0], result.receipts[0]];
  if (paid && receipt) return { ok: true, recorded: "now", booking: paid, receipt };
  if (result.alreadyRecorded) return { ok: true, recorded: "already", booking };
  return { ok: false, booking, reason: result.refused[0]?.reason ?? "Not payable" };
}
