import { addStudioDays } from "#app/domain/studio-time";

/** Limits on holding the calendar (docs/product.md "Availability and holds"). */

/** A weekly series is one hold: its first unpaid session and the series' id. */
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

export function tooManyUnpaidHolds(openHolds: number, max: number): boolean {
  return openHolds >= max;
}

/**
 * A live offer holds its range as an unpaid booking does; a request that claims one of them turns
 * it into one of its sessions, so that offer is counted once.
 */
export type HeldSessions = {
  unpaidSessions: number;
  liveOffers: number;
  adding: number;
  claimsOffer?: boolean;
};

function offersBeside(held: HeldSessions): number {
  return held.claimsOffer ? Math.max(0, held.liveOffers - 1) : held.liveOffers;
}

export function tooManyUnpaidSessions(held: HeldSessions, max: number): boolean {
  return held.unpaidSessions + offersBeside(held) + held.adding > max;
}

const counted = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

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

export function lastBookableDate(today: string, horizonDays: number): string {
  return addStudioDays(today, horizonDays);
}

export function horizonMessage(lastDate: string): string {
  return `Sessions can be booked up to ${lastDate}. Please choose an earlier date.`;
}

export function horizonProblem(date: string, today: string, horizonDays: number): string | null {
  const last = lastBookableDate(today, horizonDays);
  return date > last ? horizonMessage(last) : null;
}
