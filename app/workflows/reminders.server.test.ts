import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bookings, emailOutbox, users } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingRequest } from "#app/domain/booking-form";
import { studioInstant } from "#app/domain/studio-time";
import { toPublicUser } from "#app/models/user.server";
import { type BookingSettings, bookSession } from "#app/workflows/book-session.server";
import { queueSessionReminders } from "#app/workflows/reminders.server";
import { rescheduleOwnBooking } from "#app/workflows/reschedule.server";
import { recordPayment } from "#app/workflows/fulfil-payment.server";

/**
 * Session reminders against a real, freshly migrated SQLite file: one per confirmed session
 * within 24 hours, none for others, and a new one after a move.
 */
const SETTINGS: BookingSettings = { holdMinutes: 30, bufferMinutes: 0, appUrl: "https://t.test" };
const BOOKED_AT = studioInstant("2026-12-01", "09:00");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let customer: ReturnType<typeof toPublicUser>;
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
  customer = makeUser("reminded");
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

describe("session reminders", () => {
  it("queues one reminder for a confirmed session starting within 24 hours", () => {
    const booking = paidBooking();
    db.update(bookings).set({ status: "CONFIRMED" }).where(eq(bookings.id, booking.id)).run();
    const early = booking.startsAt - DAY - MINUTE;
    queueSessionReminders(early, "https://t.test");
    expect(outboxFor(booking.id, "session-reminder")).toHaveLength(0);

    const due = booking.startsAt - DAY + MINUTE;
    queueSessionReminders(due, "https://t.test");
    queueSessionReminders(due + MINUTE, "https://t.test");
    const sent = outboxFor(booking.id, "session-reminder");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text).toContain(`https://t.test/dashboard/sessions/${booking.id}`);
  });

  it("skips sessions not confirmed, and reminds again after a move", () => {
    const pending = paidBooking();
    queueSessionReminders(pending.startsAt - HOUR, "https://t.test");
    expect(outboxFor(pending.id, "session-reminder")).toHaveLength(0);

    db.update(bookings).set({ status: "CONFIRMED" }).where(eq(bookings.id, pending.id)).run();
    queueSessionReminders(pending.startsAt - HOUR, "https://t.test");
    const moved = rescheduleOwnBooking(
      { bookingId: pending.id, userId: customer.id, recordingDate: day(2), recordingTime: "10:00" },
      BOOKED_AT,
      SETTINGS,
    );
    queueSessionReminders(moved.startsAt - HOUR, "https://t.test");
    expect(outboxFor(pending.id, "session-reminder")).toHaveLength(2);
  });
});
