import type { Booking } from "#db/schema";
import { type Tx, writeTransaction } from "#app/db.server";
import { env } from "#app/env.server";
import {
  ADVANCE_NOTICE_MESSAGE,
  busyWindowFor,
  SLOT_TAKEN_MESSAGE,
  startProblem,
} from "#app/domain/availability";
import { claimProblem } from "#app/domain/booking-claim";
import { horizonProblem } from "#app/domain/booking-limits";
import { canReschedule, RESCHEDULABLE_STATUSES } from "#app/domain/cancellation";
import { Refusal } from "#app/domain/refusal";
import { retainerCovers } from "#app/domain/retainer";
import { studioDateOf, studioSession } from "#app/domain/studio-time";
import { sessionCalendarAttachment } from "#app/emails/calendar.server";
import { bookingRescheduledEmail, formatSessionTime } from "#app/emails/templates.server";
import {
  getBooking,
  moveBooking,
  readBusyRanges,
  recordBookingHistory,
} from "#app/models/booking.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { accountEmail } from "#app/models/user.server";
import { offerFreedRanges } from "#app/workflows/waitlist.server";

/**
 * A customer moving their own session (docs/product.md "Cancel, refund, reschedule"): at
 * least 24 hours before it starts, to a free slot of the same length that obeys every booking
 * rule. Check and move happen in one IMMEDIATE transaction, so two customers (or two tabs)
 * racing for one slot cannot both get it; the price and the payment stay as they were.
 */
export type RescheduleSettings = {
  bufferMinutes: number;
  /** Base URL for the calendar event's link, e.g. https://studio.example */
  appUrl: string;
  /** BOOKING_HORIZON_DAYS; absent, a test's settings leave the horizon off. */
  horizonDays?: number;
};

/** The configured rules: what the site uses unless a test passes its own. */
export function configuredRescheduleSettings(): RescheduleSettings {
  return {
    bufferMinutes: env.BUFFER_MINUTES,
    appUrl: env.APP_URL,
    horizonDays: env.BOOKING_HORIZON_DAYS,
  };
}

export const SAME_SLOT_MESSAGE = "Your session is already at that time: choose another one.";

/** Why a booking cannot be moved by its customer now, or null when it can. */
export function rescheduleProblem(booking: Booking, now: number): string | null {
  // A booking being cancelled (a refund in flight) is not moved meanwhile.
  if (canReschedule(booking, now)) return claimProblem(booking.claim);
  if (!RESCHEDULABLE_STATUSES.includes(booking.status)) {
    return booking.status === "PENDING_PAYMENT"
      ? "Pay for this booking first, or cancel it and book another time."
      : "This session can no longer be rescheduled.";
  }
  return "Sessions can be rescheduled until 24 hours before they start. Please contact the studio.";
}

export function rescheduleOwnBooking(
  input: { bookingId: number; userId: number; recordingDate: string; recordingTime: string },
  now: number,
  settings: RescheduleSettings = configuredRescheduleSettings(),
): Booking {
  return writeTransaction((tx) => {
    const booking = getBooking(tx, input.bookingId);
    if (!booking || booking.userId !== input.userId) {
      throw new Refusal("not-found", "Booking not found");
    }
    const problem = rescheduleProblem(booking, now);
    if (problem) throw new Refusal("not-reschedulable", problem);
    if (
      booking.recordingDate === input.recordingDate &&
      booking.recordingTime === input.recordingTime
    ) {
      throw new Refusal("new-slot-refused", SAME_SLOT_MESSAGE);
    }

    if (settings.horizonDays !== undefined) {
      const tooFar = horizonProblem(input.recordingDate, studioDateOf(now), settings.horizonDays);
      if (tooFar) throw new Refusal("new-slot-refused", tooFar);
    }

    const retainerWindow = retainerWindowOf(tx, booking);
    if (retainerWindow && !retainerCovers(retainerWindow, input.recordingDate)) {
      throw new Refusal(
        "new-slot-refused",
        `This session uses your retainer package, so it must stay within its window (${retainerWindow.startDate} to ${retainerWindow.endDate}, end excluded).`,
      );
    }

    const hours = Number(booking.hoursNeeded);
    const busy = readBusyRanges(
      busyWindowFor(input.recordingDate, settings.bufferMinutes),
      now,
      booking.id,
    );
    const slotProblem = startProblem({
      date: input.recordingDate,
      time: input.recordingTime,
      hours,
      busy,
      now,
      bufferMinutes: settings.bufferMinutes,
    });
    if (slotProblem === "taken") throw new Refusal("new-slot-refused", SLOT_TAKEN_MESSAGE);
    if (slotProblem === "too-soon") throw new Refusal("new-slot-refused", ADVANCE_NOTICE_MESSAGE);
    if (slotProblem === "skipped") {
      throw new Refusal(
        "new-slot-refused",
        "That time does not exist that day: the clocks change.",
      );
    }

    const slot = studioSession(input.recordingDate, input.recordingTime, hours);
    // The reminder belongs to the new time: moving clears it.
    const moved = moveBooking(tx, booking, {
      recordingDate: input.recordingDate,
      recordingTime: input.recordingTime,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
    });
    if (!moved) throw new Error(`Booking ${booking.id} changed while it was being moved`);
    recordBookingHistory(tx, {
      bookingId: booking.id,
      actorUserId: input.userId,
      fromStatus: booking.status,
      toStatus: booking.status,
      note: `Rescheduled by the customer from ${formatSessionTime(booking)} to ${formatSessionTime(moved)}`,
      createdAt: now,
    });
    enqueueEmail(tx, {
      kind: "booking-rescheduled",
      to: accountEmail(tx, moved.userId),
      bookingId: moved.id,
      ...bookingRescheduledEmail({ booking: moved, previous: booking }),
      // The calendar event keeps its UID: opening the file moves it in the customer's calendar.
      attachments: [sessionCalendarAttachment(moved, settings.appUrl, now)],
    });
    // The range it left goes to the waitlist in the same transaction (docs/product.md "Waitlist").
    offerFreedRanges(tx, now);
    return moved;
  });
}

/**
 * The window a session must stay in: a retainer purchase keeps the window it bought (it
 * started on the first session's day), and a session drawing retainer hours stays in the
 * window of the retainer it draws from.
 */
function retainerWindowOf(tx: Tx, booking: Booking) {
  if (booking.isRetainer && booking.retainerStartDate && booking.retainerEndDate) {
    return { startDate: booking.retainerStartDate, endDate: booking.retainerEndDate };
  }
  if (booking.retainerBookingId === null || booking.retainerHoursDrawn === 0) return null;
  const retainer = getBooking(tx, booking.retainerBookingId);
  if (!retainer?.retainerStartDate || !retainer.retainerEndDate) return null;
  return { startDate: retainer.retainerStartDate, endDate: retainer.retainerEndDate };
}
