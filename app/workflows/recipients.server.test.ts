import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailOutbox, users } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingRequest } from "#app/domain/booking-form";
import { studioInstant } from "#app/domain/studio-time";
import { toPublicUser } from "#app/models/user.server";
import { type BookingSettings, bookSession } from "#app/workflows/book-session.server";
import { cancelForStudio } from "#app/workflows/cancel-booking.server";
import { recordSessionPayment } from "#tests/setup/workflow-bookings";
import {
  changeBookingStatus,
  type WorkflowSettings,
} from "#app/workflows/change-booking-status.server";
import { queueSessionReminders } from "#app/workflows/reminders.server";
import { rescheduleOwnBooking } from "#app/workflows/reschedule.server";
import { createSupportRequest, updateSupportRequest } from "#app/workflows/support.server";

/**
 * Issue 13, "mail others": a booking (or a support request) whose form names a stranger's
 * contact e-mail sends that stranger nothing, whatever happens to it; every e-mail goes to the
 * account's own address. One booking walks through every kind of e-mail a booking can cause.
 */
const APP_URL = "https://t.test";
const BOOKING: BookingSettings = { holdMinutes: 30, bufferMinutes: 0, appUrl: APP_URL };
const BOOKED_AT = studioInstant("2027-03-01", "09:00");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const STRANGER = "stranger@victim.example";

const provider: WorkflowSettings["provider"] = {
  async refund(refund) {
    return { refundId: `refund_${refund.bookingId}`, amount: refund.amount };
  },
  async findRefund() {
    return null;
  },
  async closeCheckout(id) {
    return {
      id,
      status: "expired" as const,
      url: null,
      paid: false,
      order: null,
      amountTotal: null,
      currency: null,
      paymentId: null,
      card: { brand: "unknown", last4: "" },
    };
  },
};
const STAFF_SETTINGS: WorkflowSettings = {
  feePercent: 50,
  bufferMinutes: 0,
  appUrl: APP_URL,
  provider,
};

function makeUser(username: string, email: string, isAdmin = false) {
  const row = db
    .insert(users)
    .values({
      username,
      passwordHash: "x",
      firstName: "Owen",
      lastName: "Owner",
      phoneNumber: "404-555-0100",
      email,
      isAdmin,
    })
    .returning()
    .get();
  return toPublicUser(row);
}

const outboxTo = (address: string) =>
  db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address)).all();

describe("who booking and support e-mails go to", () => {
  it("sends every e-mail to the account's own address and nothing to the typed contact e-mail", async () => {
    const owner = makeUser("owner_recipients", "owner@example.com");
    const staff = makeUser("staff_recipients", "staff@example.com", true);
    const request: BookingRequest = {
      firstName: "Owen",
      lastName: "Owner",
      phoneNumber: "404-555-0100",
      email: STRANGER,
      stakeholder: "no",
      recordingDate: "2027-03-20",
      recordingTime: "10:00",
      guestCount: 1,
      hoursNeeded: 2,
      isRetainer: false,
      selectedServices: [],
    };

    const booked = bookSession(owner, request, BOOKED_AT, BOOKING);
    // The contact e-mail stays on the booking for staff to see.
    expect(booked.email).toBe(STRANGER);

    const paid = recordSessionPayment(
      {
        bookingId: booked.id,
        amount: booked.totalCost,
        method: "card",
        transactionId: `charge_${booked.id}`,
        details: { brand: "visa", last4: "4242" },
      },
      BOOKED_AT + MINUTE,
      0,
    );
    expect(paid).toMatchObject({ ok: true, recorded: "now" });

    await changeBookingStatus(
      booked.id,
      "CONFIRMED",
      staff,
      null,
      BOOKED_AT + HOUR,
      STAFF_SETTINGS,
    );

    const moved = rescheduleOwnBooking(
      {
        bookingId: booked.id,
        userId: owner.id,
        recordingDate: "2027-03-21",
        recordingTime: "10:00",
      },
      BOOKED_AT + 2 * HOUR,
      { bufferMinutes: 0, appUrl: APP_URL },
    );

    expect(queueSessionReminders(moved.startsAt - 12 * HOUR, APP_URL)).toBeGreaterThanOrEqual(1);

    await cancelForStudio(
      { bookingId: booked.id, actorUserId: staff.id, note: "Studio closed" },
      moved.startsAt - 6 * HOUR,
      { feePercent: 50, provider },
    );

    const support = createSupportRequest(
      owner.id,
      {
        issueType: "EQUIPMENT",
        description: "Free text the requester typed.",
        preferredContactMethod: "EMAIL",
        name: "Owen",
        email: STRANGER,
        bookingId: booked.id,
      },
      BOOKED_AT,
    );
    updateSupportRequest(
      support.id,
      { status: "IN_PROGRESS", resolution: null },
      BOOKED_AT,
      APP_URL,
    );
    updateSupportRequest(
      support.id,
      { status: "RESOLVED", resolution: "Fixed." },
      BOOKED_AT,
      APP_URL,
    );

    expect(outboxTo(STRANGER)).toEqual([]);
    expect(
      outboxTo("owner@example.com")
        .map((row) => row.kind)
        .sort(),
    ).toEqual(
      [
        "booking-cancelled",
        "booking-confirmed",
        "booking-received",
        "booking-rescheduled",
        "payment-received",
        "session-reminder",
        "support-resolved",
      ].sort(),
    );
    expect(outboxTo("staff@example.com")).toEqual([]);
  });
});
