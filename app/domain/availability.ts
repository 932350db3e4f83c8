import {
  addStudioDays,
  isStudioWallTime,
  studioDateOf,
  studioInstant,
} from "#app/domain/studio-time";

/**
 * When a session may start (docs/product.md "Time", "Availability and holds"). Pure, so the form
 * in the browser and the insert on the server judge alike.
 */
export const BOOKING_LIMITS = {
  minHours: 2,
  maxHours: 8,
  minGuests: 1,
  maxGuests: 4,
  advanceNoticeHours: 48,
} as const;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The studio is open 24/7; starts are hourly. */
export const START_TIMES: readonly string[] = Array.from(
  { length: 24 },
  (_, hour) => `${String(hour).padStart(2, "0")}:00`,
);

export const HOUR_OPTIONS: readonly number[] = Array.from(
  { length: BOOKING_LIMITS.maxHours - BOOKING_LIMITS.minHours + 1 },
  (_, i) => BOOKING_LIMITS.minHours + i,
);

export const GUEST_OPTIONS: readonly number[] = Array.from(
  { length: BOOKING_LIMITS.maxGuests - BOOKING_LIMITS.minGuests + 1 },
  (_, i) => BOOKING_LIMITS.minGuests + i,
);

export const ADVANCE_NOTICE_MESSAGE = "Booking must be at least 48 hours in advance";
export const SLOT_TAKEN_MESSAGE =
  "The selected time slot conflicts with an existing booking. Please select a different time.";

/** A live booking (buffered) or a blocked range (as is). */
export type BusyRange = { startsAt: number; endsAt: number; kind: "booking" | "blocked" };

export function meetsAdvanceNotice(startsAt: number, now: number): boolean {
  return startsAt >= now + BOOKING_LIMITS.advanceNoticeHours * HOUR_MS;
}

/** The day of now + 48 h, or the next one when its last start (23:00) is too early. */
export function earliestBookableDate(now: number): string {
  const day = studioDateOf(now + BOOKING_LIMITS.advanceNoticeHours * HOUR_MS);
  const lastStart = START_TIMES[START_TIMES.length - 1] ?? "23:00";
  return meetsAdvanceNotice(studioInstant(day, lastStart), now) ? day : addStudioDays(day, 1);
}

/** Blocked ranges need no turnaround buffer. */
export function conflictsWith(
  slot: { startsAt: number; endsAt: number },
  busy: readonly BusyRange[],
  bufferMinutes: number,
): boolean {
  const buffer = bufferMinutes * MINUTE_MS;
  return busy.some((range) => {
    const pad = range.kind === "booking" ? buffer : 0;
    return slot.startsAt < range.endsAt + pad && range.startsAt < slot.endsAt + pad;
  });
}

/** Any range overlapping [from, to) can collide with a session starting that day. */
export function busyWindowFor(date: string, bufferMinutes: number): { from: number; to: number } {
  const buffer = bufferMinutes * MINUTE_MS;
  return {
    from: studioInstant(date, "00:00") - buffer,
    to: studioInstant(addStudioDays(date, 1), "00:00") + BOOKING_LIMITS.maxHours * HOUR_MS + buffer,
  };
}

export type StartTimeOption = {
  time: string;
  available: boolean;
  /** Why a time cannot be chosen: inside 48 hours, taken, or skipped by the clocks. */
  reason: "too-soon" | "taken" | "skipped" | "current" | null;
};

export function startTimeOptions(input: {
  date: string;
  hours: number;
  busy: readonly BusyRange[];
  now: number;
  bufferMinutes: number;
}): StartTimeOption[] {
  return START_TIMES.map((time) => {
    const reason = startProblem({ ...input, time });
    return { time, available: reason === null, reason };
  });
}

export function startProblem(input: {
  date: string;
  time: string;
  hours: number;
  busy: readonly BusyRange[];
  now: number;
  bufferMinutes: number;
}): Exclude<StartTimeOption["reason"], "current"> {
  if (!isStudioWallTime(input.date, input.time)) return "skipped";
  const startsAt = studioInstant(input.date, input.time);
  if (!meetsAdvanceNotice(startsAt, input.now)) return "too-soon";
  const slot = { startsAt, endsAt: startsAt + input.hours * HOUR_MS };
  return conflictsWith(slot, input.busy, input.bufferMinutes) ? "taken" : null;
}
