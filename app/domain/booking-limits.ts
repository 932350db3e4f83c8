import { addStudioDays } from "#app/domain/studio-time";

/**
 * Two limits on holding the calendar (docs/product.md "Availability and holds"): how many
 * unpaid bookings one customer may hold at once, and how far ahead a session may be booked.
 * Both numbers come from settings (MAX_UNPAID_HOLDS, BOOKING_HORIZON_DAYS).
 */

/**
 * An unpaid booking of the customer's whose hold has not run out; for a weekly series (one
 * hold), its first unpaid session and the series' id.
 */
export type OpenHold = {
  id: number;
  recordingDate: string;
  recordingTime: string;
  seriesId?: number | null;
};

export function unpaidHoldsMessage(max: number): string {
  const holds = max === 1 ? "one unpaid booking" : `${max} unpaid bookings`;
  return `You already have ${holds} waiting for payment. Please pay for or cancel one of them before booking another session.`;
}

/** Whether one more unpaid booking would go past the cap. */
export function tooManyUnpaidHolds(openHolds: number, max: number): boolean {
  return openHolds >= max;
}

/** The last studio date that may be booked, `horizonDays` after today (studio time). */
export function lastBookableDate(today: string, horizonDays: number): string {
  return addStudioDays(today, horizonDays);
}

export function horizonMessage(lastDate: string): string {
  return `Sessions can be booked up to ${lastDate}. Please choose an earlier date.`;
}

/** Why a session date is too far ahead, or null when it is within the horizon. */
export function horizonProblem(date: string, today: string, horizonDays: number): string | null {
  const last = lastBookableDate(today, horizonDays);
  return date > last ? horizonMessage(last) : null;
}
