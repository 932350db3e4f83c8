import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import { sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import { formatDollars } from "#app/domain/pricing";
import { guestsLabel, hoursLabel, statusLabel } from "#app/domain/session-list";
import { STUDIO, studioAddress } from "#app/domain/studio";
import type { EmailAttachment } from "#app/domain/outbox";
import type { EmailBooking } from "#app/emails/templates.server";

/**
 * UTC instants, so every calendar app shows the studio's time in its own zone; a UID stable per
 * booking, so importing the file again updates the event (docs/product.md "Download Details").
 */
export function sessionCalendarFilename(booking: Pick<EmailBooking, "id">): string {
  return `studio-session-${booking.id}.ics`;
}

export function sessionCalendar(booking: EmailBooking, appUrl: string, now = Date.now()): string {
  const calendar = newCalendar();
  addSessionEvent(calendar, booking, appUrl, now);
  return calendar.toString();
}

/** Each session keeps its own UID, so importing adds or updates every one. */
export function seriesCalendar(
  sessions: readonly EmailBooking[],
  appUrl: string,
  now = Date.now(),
): string {
  const calendar = newCalendar();
  for (const session of sessions) addSessionEvent(calendar, session, appUrl, now);
  return calendar.toString();
}

export function seriesCalendarFilename(seriesId: number): string {
  return `studio-series-${seriesId}.ics`;
}

function newCalendar() {
  return ical({
    prodId: { company: STUDIO.name, product: "Bookings", language: "EN" },
    name: STUDIO.name,
    method: ICalCalendarMethod.PUBLISH,
  });
}

function addSessionEvent(
  calendar: ReturnType<typeof ical>,
  booking: EmailBooking,
  appUrl: string,
  now: number,
) {
  calendar.createEvent({
    id: `booking-${booking.id}@${new URL(appUrl).host}`,
    start: new Date(booking.startsAt),
    end: new Date(booking.endsAt),
    stamp: new Date(now),
    // Apps apply a file over the same UID only when its sequence is higher: the second only grows.
    sequence: Math.floor(now / 1000),
    summary: `Recording session at ${STUDIO.name}`,
    location: studioAddress(),
    url: `${appUrl}/dashboard/sessions/${booking.id}`,
    status: eventStatus(booking.status),
    description: [
      `Booking #${booking.id}`,
      `Status: ${statusLabel(booking.status)}`,
      `${sessionDate(booking)}, ${sessionTimeRange(booking)} (Atlanta time)`,
      `Duration: ${hoursLabel(booking.hoursNeeded)}`,
      `Guests: ${guestsLabel(booking.guestCount)}`,
      `Total: ${formatDollars(booking.totalCost)}`,
      `Questions? ${STUDIO.email} or ${STUDIO.phone}`,
    ].join("\n"),
  });
}

export function sessionCalendarAttachment(
  booking: EmailBooking,
  appUrl: string,
  now = Date.now(),
): EmailAttachment {
  return {
    filename: sessionCalendarFilename(booking),
    contentType: "text/calendar; charset=utf-8",
    content: Buffer.from(sessionCalendar(booking, appUrl, now)).toString("base64"),
  };
}

function eventStatus(status: EmailBooking["status"]): ICalEventStatus {
  if (status === "CANCELLED") return ICalEventStatus.CANCELLED;
  if (status === "PENDING_PAYMENT" || status === "PENDING") return ICalEventStatus.TENTATIVE;
  return ICalEventStatus.CONFIRMED;
}
