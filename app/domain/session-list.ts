import { type BookingStatus, STATUS_LABELS } from "#app/domain/booking-status";
import { formatStudioInstant } from "#app/domain/booking-display";
import { addStudioDays, studioDateOf, studioInstant } from "#app/domain/studio-time";

/** My Sessions (docs/product.md "Client dashboard"). */
export const SESSION_LISTS = ["upcoming", "past"] as const;
export type SessionList = (typeof SESSION_LISTS)[number];

type Dated = { id: number; recordingDate: string; startsAt: number };

/**
 * By the studio's calendar: a session earlier today is still today's, whatever the server's zone.
 */
export function sessionListOf(session: { recordingDate: string }, now: number): SessionList {
  return session.recordingDate >= studioDateOf(now) ? "upcoming" : "past";
}

export function splitSessions<T extends Dated>(
  sessions: readonly T[],
  now: number,
): Record<SessionList, T[]> {
  const upcoming = sessions.filter((session) => sessionListOf(session, now) === "upcoming");
  const past = sessions.filter((session) => sessionListOf(session, now) === "past");
  upcoming.sort((a, b) => a.startsAt - b.startsAt || a.id - b.id);
  past.sort((a, b) => b.startsAt - a.startsAt || b.id - a.id);
  return { upcoming, past };
}

export function sessionListParam(value: string | null): SessionList {
  return SESSION_LISTS.find((list) => list === value) ?? "upcoming";
}

/** docs/product.md "Client dashboard". */
export type StatusTone = "green" | "yellow" | "blue" | "red" | "grey" | "purple";

export function statusTone(status: BookingStatus): StatusTone {
  switch (status) {
    case "CONFIRMED":
      return "green";
    case "PENDING_PAYMENT":
      return "yellow";
    case "COMPLETED":
      return "blue";
    case "CANCELLED":
      return "red";
    default:
      return "grey";
  }
}

export function statusLabel(status: BookingStatus): string {
  return STATUS_LABELS[status];
}

export function shortSessionDate(session: { startsAt: number }): string {
  return formatStudioInstant(session.startsAt, "MMM d, yyyy");
}

/** The recorded discountAmount, or the difference when none was recorded. */
export function discountOf(booking: {
  originalCost: number;
  totalCost: number;
  discountAmount: number;
}): number {
  if (booking.originalCost <= booking.totalCost) return 0;
  return booking.discountAmount > 0
    ? booking.discountAmount
    : booking.originalCost - booking.totalCost;
}

export function hoursLabel(hours: string | number): string {
  return Number(hours) === 1 ? "1 hour" : `${hours} hours`;
}

export function guestsLabel(guests: string | number): string {
  return Number(guests) === 1 ? "1 guest" : `${guests} guests`;
}

/** Noon is never inside a clock change. */
export function shortStudioDay(date: string): string {
  return formatStudioInstant(studioInstant(date, "12:00"), "MMM d, yyyy");
}

/** A retainer's window is [startDate, endDate). */
export function retainerLastDay(endDate: string): string {
  return addStudioDays(endDate, -1);
}

export function paymentMethodLabel(
  method: string,
  details: Record<string, unknown> | null,
): string {
  const brand = typeof details?.brand === "string" && details.brand ? details.brand : method;
  const last4 =
    typeof details?.last4 === "string" && /^\d{4}$/.test(details.last4) ? details.last4 : null;
  const name = brand.charAt(0).toUpperCase() + brand.slice(1);
  return last4 ? `${name} •••• ${last4}` : name;
}
