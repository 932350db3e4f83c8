import { addStudioDays } from "#app/domain/studio-time";

/**
 * Limits on holding the calendar (docs/product.md "Availability and holds"): how many unpaid
 * bookings (orders) and how many unpaid sessions one customer may hold at once, and how far
 * ahead a session may be booked. The numbers come from settings (MAX_UNPAID_HOLDS,
 * MAX_UNPAID_SESSIONS, BOOKING_HORIZON_DAYS).
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

/**
 * What one customer holds against MAX_UNPAID_SESSIONS, and what a request would add: their
 * unpaid sessions whose hold is live, their live waitlist offers (an offer holds its range as
 * an unpaid booking does), and the unpaid sessions the request writes. A request that claims
 * one of those offers turns it into one of its sessions, so that offer is counted once.
 */
export type HeldSessions = {
  unpaidSessions: number;
  liveOffers: number;
  adding: number;
  claimsOffer?: boolean;
};

/** The live offers still counted beside the request's sessions: a claimed one becomes one. */
function offersBeside(held: HeldSessions): number {
  return held.claimsOffer ? Math.max(0, held.liveOffers - 1) : held.liveOffers;
}

/** Whether the request would leave more than `max` unpaid sessions and live offers held. */
export function tooManyUnpaidSessions(held: HeldSessions, max: number): boolean {
  return held.unpaidSessions + offersBeside(held) + held.adding > max;
}

const counted = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/** The refusal when `tooManyUnpaidSessions`: what they hold, the cap, and what to do. */
export function unpaidSessionsMessage(held: HeldSessions, max: number): string {
  const offers = offersBeside(held);
  const { unpaidSessions, adding } = held;
  if (unpaidSessions + offers === 0) {
    return `This series would leave ${adding} sessions waiting for payment, more than the ${max} one account may hold at once. Please book fewer sessions.`;
  }
  const parts = [
    unpaidSessions > 0
      ? `${counted(unpaidSessions, "unpaid session", "unpaid sessions")} waiting for payment`
      : null,
    offers > 0 ? `${counted(offers, "waitlist offer", "waitlist offers")} held for you` : null,
  ].filter((part) => part !== null);
  const series = adding > 1 ? `, and this series would add ${adding}` : "";
  const included = offers > 0 ? ", waitlist offers included" : "";
  const verbs = offers > 0 ? "pay for, cancel or remove" : "pay for or cancel";
  const what =
    adding > 1 ? "some of them before booking more" : "one of them before booking another session";
  return `You already have ${parts.join(" and ")}${series}: at most ${counted(max, "unpaid session", "unpaid sessions")} may be held at once${included}. Please ${verbs} ${what}.`;
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
