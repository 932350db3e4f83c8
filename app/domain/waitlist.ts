import type { StartTimeOption } from "#app/domain/availability";
import type { RefusalKind } from "#app/domain/refusal";

/** docs/product.md "Waitlist". Pure: the workflow asks these what its reads mean. */
export const WAITLIST_MESSAGES = {
  notTaken: "That time is free: you can book it now instead of joining the waitlist.",
  duplicate: "You are already on the waitlist for this time.",
  ownBooking: "You already have a session booked at this time.",
  notFound: "This waitlist entry does not exist.",
  notOpen: "This waitlist entry is no longer open.",
  claimGone:
    "This waitlist offer is no longer yours to claim: it ran out, was removed or belongs to someone else.",
  claimDifferent:
    "A waitlist offer is for its own date, start time and hours: book those, or book another time without the offer.",
  entryId: "waitlistEntryId must be the number of your waitlist entry.",
  claimSeries:
    "A waitlist offer is claimed by one booking: leave out repeat, or book the series without the offer.",
} as const;

export function tooManyWaitlistMessage(max: number): string {
  const entries = max === 1 ? "one open waitlist entry" : `${max} open waitlist entries`;
  return `You already have ${entries}. Please remove one before joining another.`;
}

export type JoinRefusal = {
  kind: Extract<
    RefusalKind,
    "range-free" | "already-waiting" | "waitlist-full" | "start-refused" | "own-booking"
  >;
  message: string;
};

/**
 * Only a range taken now (a start that could not be booked even if it freed is refused), not by
 * the customer's own booking (waiting would only hold it again once their hold runs out).
 */
export function joinRefusal(input: {
  startProblem: Exclude<StartTimeOption["reason"], "current">;
  ownBooking: boolean;
  duplicate: boolean;
  openEntries: number;
  max: number;
}): JoinRefusal | null {
  if (input.startProblem === null)
    return { kind: "range-free", message: WAITLIST_MESSAGES.notTaken };
  if (input.startProblem !== "taken") {
    return { kind: "start-refused", message: "This start time cannot be booked." };
  }
  if (input.ownBooking) return { kind: "own-booking", message: WAITLIST_MESSAGES.ownBooking };
  if (input.duplicate) return { kind: "already-waiting", message: WAITLIST_MESSAGES.duplicate };
  if (input.openEntries >= input.max) {
    return { kind: "waitlist-full", message: tooManyWaitlistMessage(input.max) };
  }
  return null;
}

/** The claim must book exactly what was offered. */
export function sameRange(
  a: { recordingDate: string; recordingTime: string; hoursNeeded: number },
  b: { recordingDate: string; recordingTime: string; hoursNeeded: number },
): boolean {
  return (
    a.recordingDate === b.recordingDate &&
    a.recordingTime === b.recordingTime &&
    a.hoursNeeded === b.hoursNeeded
  );
}
