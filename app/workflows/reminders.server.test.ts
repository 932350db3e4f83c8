import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bookings } from "#db/schema";
import { db } from "#app/db.server";
import { queueSessionReminders } from "#app/workflows/reminders.server";
import { rescheduleOwnBooking } from "#app/workflows/reschedule.server";

import {
  BOOKED_AT,
  DAY,
  day,
  HOUR,
  MINUTE,
  makeUser,
  outboxFor,
  paidBooking,
  SETTINGS,
} from "#tests/setup/workflow-bookings";
import type { PublicUser } from "#app/domain/user";

/**
 * Session reminders against a real, freshly migrated SQLite file: one per confirmed session
 * within 24 hours, none for others, and a new one after a move.
 */

let customer: PublicUser;

beforeEach(() => {
  customer = makeUser("reminded");
});

describe("session reminders", () => {
  it("queues one reminder for a confirmed session starting within 24 hours", () => {
    const booking = paidBooking(customer);
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
    const pending = paidBooking(customer);
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
