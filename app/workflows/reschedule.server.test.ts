import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { payments } from "#db/schema";
import { db } from "#app/db.server";
import { studioInstant } from "#app/domain/studio-time";
import { getBooking } from "#app/models/booking.server";
import { bookSession } from "#app/workflows/book-session.server";
import { rescheduleOwnBooking } from "#app/workflows/reschedule.server";
import { Refusal } from "#app/domain/refusal";

import {
  BOOKED_AT,
  DAY,
  day,
  MINUTE,
  makeUser,
  outboxFor,
  paidBooking,
  request,
  SETTINGS,
} from "#tests/setup/workflow-bookings";
import type { PublicUser } from "#app/domain/user";

/**
 * A customer moving their own session, against a real, freshly migrated SQLite file: the
 * slot rules, the 24-hour limit, the retainer window, and the e-mail with its calendar file.
 */

let customer: PublicUser;
let other: PublicUser;

beforeEach(() => {
  customer = makeUser("mover");
  other = makeUser("other");
});

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
    const booking = paidBooking(customer);
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
    const booking = paidBooking(customer);
    expect(move(booking.id, day(), "11:00").startsAt).toBe(studioInstant(day(), "11:00"));
  });

  it("refuses a slot another session holds, and changes nothing", () => {
    const booking = paidBooking(customer);
    paidBooking(customer, { recordingDate: day(1), recordingTime: "12:00" });
    expect(() => move(booking.id, day(1), "11:00")).toThrow(Refusal);
    expect(getBooking(db, booking.id)?.recordingDate).toBe(day());
    expect(outboxFor(booking.id, "booking-rescheduled")).toHaveLength(0);
  });

  it("allows it up to exactly 24 hours before the start, not a minute later", () => {
    const booking = paidBooking(customer);
    expect(() => move(booking.id, day(1), "10:00", booking.startsAt - DAY + MINUTE)).toThrow(
      /24 hours/,
    );
    expect(move(booking.id, day(2), "10:00", booking.startsAt - DAY).recordingDate).toBe(day(2));
  });

  it("keeps the 48-hour notice for the new time", () => {
    const booking = paidBooking(customer, { recordingDate: day(2) });
    const now = studioInstant(day(), "09:00");
    expect(() => move(booking.id, day(1), "08:00", now)).toThrow(
      "Booking must be at least 48 hours in advance",
    );
  });

  it("refuses unpaid bookings and other customers' bookings", () => {
    const unpaid = bookSession(customer, request(), BOOKED_AT, SETTINGS);
    expect(() => move(unpaid.id, day(1), "10:00")).toThrow(/Pay for this booking first/);
    const paid = paidBooking(customer, { recordingDate: day(2) });
    expect(() => move(paid.id, day(1), "10:00", BOOKED_AT, other.id)).toThrow("Booking not found");
  });

  it("keeps a retainer session inside its retainer's window", () => {
    const purchase = paidBooking(customer, { isRetainer: true, hoursNeeded: 2 });
    const outside = purchase.retainerEndDate ?? "";
    expect(() => move(purchase.id, outside, "10:00")).toThrow(/retainer package/);
    expect(move(purchase.id, day(1), "10:00").recordingDate).toBe(day(1));
  });
});
