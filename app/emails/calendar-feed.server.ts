import { createHash } from "node:crypto";
import ical, { ICalEventStatus } from "ical-generator";
import { sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import type { CalendarFeedKind, FeedBooking } from "#app/domain/calendar-feed";
import { guestsLabel, hoursLabel, statusLabel } from "#app/domain/session-list";
import { STUDIO, studioAddress } from "#app/domain/studio";

/**
 * docs/product.md "Calendar feeds". The events are plain data first: their hash is the ETag, and
 * DTSTAMP and SEQUENCE come from when that version was first served, so an unchanged feed gives
 * the very same bytes.
 */
type FeedEvent = {
  id: string;
  start: number;
  end: number;
  summary: string;
  location: string;
  url: string;
  status: ICalEventStatus;
  description: string;
};

export function feedEvents(
  kind: CalendarFeedKind,
  rows: FeedBooking[],
  appUrl: string,
): FeedEvent[] {
  const host = new URL(appUrl).host;
  return rows.map((booking) => {
    const when = `${sessionDate(booking)}, ${sessionTimeRange(booking)} (Atlanta time)`;
    const common = {
      // Not the Download Details file's UID: a subscribed copy must not overwrite an imported one.
      id: `feed-booking-${booking.id}@${host}`,
      start: booking.startsAt,
      end: booking.endsAt,
      location: studioAddress(),
      status: eventStatus(booking.status),
    };
    if (kind === "STUDIO") {
      // A first name only: the rest is behind staff sign-in, at the event's link.
      return {
        ...common,
        summary: `${booking.firstName} (#${booking.id})`,
        url: `${appUrl}/admin/bookings/${booking.id}`,
        description: [
          `Booking #${booking.id}`,
          `Client: ${booking.firstName}`,
          `Status: ${statusLabel(booking.status)}`,
          when,
          `Duration: ${hoursLabel(booking.hoursNeeded)}`,
          `Guests: ${guestsLabel(booking.guestCount)}`,
        ].join("\n"),
      };
    }
    return {
      ...common,
      summary: `Recording session at ${STUDIO.name}`,
      url: `${appUrl}/dashboard/sessions/${booking.id}`,
      description: [
        `Booking #${booking.id}`,
        `Status: ${statusLabel(booking.status)}`,
        when,
        `Duration: ${hoursLabel(booking.hoursNeeded)}`,
        `Guests: ${guestsLabel(booking.guestCount)}`,
        `Questions? ${STUDIO.email} or ${STUDIO.phone}`,
      ].join("\n"),
    };
  });
}

export function feedContentHash(kind: CalendarFeedKind, events: FeedEvent[]): string {
  return createHash("sha256")
    .update(JSON.stringify([kind, events]))
    .digest("base64url")
    .slice(0, 32);
}

export function feedCalendar(kind: CalendarFeedKind, events: FeedEvent[], version: number): string {
  const calendar = ical({
    prodId: { company: STUDIO.name, product: "Calendar feed", language: "EN" },
    name: kind === "STUDIO" ? `${STUDIO.name}: studio` : STUDIO.name,
    ttl: 60 * 60,
  });
  for (const event of events) {
    calendar.createEvent({
      ...event,
      start: new Date(event.start),
      end: new Date(event.end),
      stamp: new Date(version),
      sequence: Math.floor(version / 1000),
    });
  }
  return calendar.toString();
}

function eventStatus(status: FeedBooking["status"]): ICalEventStatus {
  if (status === "CANCELLED") return ICalEventStatus.CANCELLED;
  if (status === "PENDING_PAYMENT" || status === "PENDING") return ICalEventStatus.TENTATIVE;
  return ICalEventStatus.CONFIRMED;
}
