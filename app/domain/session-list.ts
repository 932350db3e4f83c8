import { type BookingStatus, STATUS_LABELS } from "#app/domain/booking-status";
import { formatStudioInstant } from "#app/domain/booking-display";
import { addStudioDays, studioDateOf, studioInstant } from "#app/domain/studio-time";

/**
 * My Sessions (docs/product.md "Client dashboard"): which list a session is in, in what order,
 * and how its status and money read. Pure, so the dashboard and its tests agree.
 */
export const SESSION_LISTS = ["upcoming", "past"] as const;
export type SessionList = (typeof SESSION_LISTS)[number];

type Dated = { id: number; recordingDate: string; startsAt: number };

/**
 * Upcoming: recorded today or later, in the studio's calendar (a session earlier today is
 * still today's). `recordingDate` is the studio-local day of `startsAt`, so this agrees with
 * the instant whatever the server's zone.
 */
export function sessionListOf(session: { recordingDate: string }, now: number): SessionList {
  return session.recordingDate >= studioDateOf(now) ? "upcoming" : "past";
}

/** Upcoming soonest first, past most recent first; ties by booking number. */
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

/** The list a `?list=` asks for; anything else is the upcoming one. */
export function sessionListParam(value: string | null): SessionList {
  return SESSION_LISTS.find((list) => list === value) ?? "upcoming";
}

/**
 * The colours of docs/product.md "Client dashboard": confirmed green, pending payment yellow,
 * completed blue, cancelled red.
 */
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

/**
 * The label of docs/product.md "Booking statuses" ("Pending Review" for PENDING), as checkout and
 * admin show it.
 */
export function statusLabel(status: BookingStatus): string {
  return STATUS_LABELS[status];
}

/** "Nov 25, 2026": the dashboard's en-US short date, in the studio's calendar. */
export function shortSessionDate(session: { startsAt: number }): string {
  return formatStudioInstant(session.startsAt, "MMM d, yyyy");
}

/**
 * The discount shown on a session: only when the original cost exceeds the total, as the
 * recorded discountAmount, or the difference when none was recorded.
 */
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

/** "2 hours"; the stored text is a whole number of hours. */
export function hoursLabel(hours: string | number): string {
  return Number(hours) === 1 ? "1 hour" : `${hours} hours`;
}

/** "1 guest", "3 guests" */
export function guestsLabel(guests: string | number): string {
  return Number(guests) === 1 ? "1 guest" : `${guests} guests`;
}

/** "Nov 25, 2026" for a studio day (yyyy-MM-dd); noon is never inside a clock change. */
export function shortStudioDay(date: string): string {
  return formatStudioInstant(studioInstant(date, "12:00"), "MMM d, yyyy");
}

/** A retainer's window is [startDate, endDate): its last usable day is the one before the end. */
export function retainerLastDay(endDate: string): string {
  return addStudioDays(endDate, -1);
}

/** "Visa •••• 4242", from the brand and last 4 digits a payment keeps; the method otherwise. */
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
