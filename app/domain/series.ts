import { type BusyRange, startProblem, startTimeOptions } from "#app/domain/availability";
import { horizonMessage } from "#app/domain/booking-limits";
import {
  SERIES_MAX_COUNT,
  SERIES_MIN_COUNT,
  SERIES_REPEAT_DAYS,
  type SeriesRepeat,
} from "#app/domain/series-repeat";
import { addStudioDays, studioSession } from "#app/domain/studio-time";

/**
 * A weekly series (docs/product.md "Weekly series"). Pure: the caller passes `now` and each day's
 * busy ranges, so the preview and the booking's transaction judge every session alike.
 */

export const SERIES_MESSAGES = {
  repeat: "Please choose how often the session repeats",
  count: `Please choose between ${SERIES_MIN_COUNT} and ${SERIES_MAX_COUNT} sessions`,
  skip: "Please leave out only dates of this series",
  tooFewLeft: `A series needs at least ${SERIES_MIN_COUNT} sessions. Book a single session instead, or keep more dates.`,
  retainer: "A retainer package cannot be repeated. Please book it as a single session.",
  conflicts:
    "Some sessions of this series cannot be booked. Leave out the taken dates or choose another time.",
} as const;

export const ALTERNATIVES_SHOWN = 3;

/** Calendar days, so 7 PM stays 7 PM across the clock changes. */
export function seriesDates(firstDate: string, every: SeriesRepeat, count: number): string[] {
  if (!Number.isInteger(count) || count < SERIES_MIN_COUNT || count > SERIES_MAX_COUNT) {
    throw new RangeError(`A series has ${SERIES_MIN_COUNT} to ${SERIES_MAX_COUNT} sessions`);
  }
  return Array.from({ length: count }, (_, i) =>
    addStudioDays(firstDate, i * SERIES_REPEAT_DAYS[every]),
  );
}

export type OccurrenceProblem = "taken" | "too-soon" | "skipped" | "too-far" | null;

export type OccurrenceCheck = {
  recordingDate: string;
  recordingTime: string;
  startsAt: number;
  endsAt: number;
  problem: OccurrenceProblem;
  alternatives: string[];
};

/** By distance, the earlier first on a tie. */
export function nearestFreeTimes(
  options: readonly { time: string; available: boolean }[],
  wanted: string,
  limit = ALTERNATIVES_SHOWN,
): string[] {
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  const target = minutes(wanted);
  return options
    .filter((option) => option.available && option.time !== wanted)
    .map((option) => ({ time: option.time, distance: Math.abs(minutes(option.time) - target) }))
    .sort((a, b) => a.distance - b.distance || a.time.localeCompare(b.time))
    .slice(0, limit)
    .map((option) => option.time);
}

/** Each session checked as a single booking; a refused one gets its day's nearest free times. */
export function checkOccurrences(input: {
  dates: readonly string[];
  time: string;
  hours: number;
  now: number;
  bufferMinutes: number;
  lastDate: string | null;
  busyOn: (date: string) => readonly BusyRange[];
}): OccurrenceCheck[] {
  return input.dates.map((date) => {
    const { startsAt, endsAt } = studioSession(date, input.time, input.hours);
    const base = { recordingDate: date, recordingTime: input.time, startsAt, endsAt };
    if (input.lastDate !== null && date > input.lastDate) {
      return { ...base, problem: "too-far", alternatives: [] };
    }
    const day = {
      date,
      hours: input.hours,
      busy: input.busyOn(date),
      now: input.now,
      bufferMinutes: input.bufferMinutes,
    };
    const problem = startProblem({ ...day, time: input.time });
    if (problem === null) return { ...base, problem, alternatives: [] };
    return { ...base, problem, alternatives: nearestFreeTimes(startTimeOptions(day), input.time) };
  });
}

export function seriesConflicts(
  checks: readonly OccurrenceCheck[],
): { recordingDate: string; alternatives: string[] }[] {
  return checks
    .filter((check) => check.problem !== null)
    .map(({ recordingDate, alternatives }) => ({ recordingDate, alternatives }));
}

export function horizonProblemOf(
  checks: readonly OccurrenceCheck[],
  lastDate: string | null,
): string | null {
  return lastDate !== null && checks.some((check) => check.problem === "too-far")
    ? horizonMessage(lastDate)
    : null;
}

export function keptDates(
  dates: readonly string[],
  skip: readonly string[],
): { dates: string[]; problem: null } | { dates: null; problem: string } {
  if (skip.some((date) => !dates.includes(date)))
    return { dates: null, problem: SERIES_MESSAGES.skip };
  const kept = dates.filter((date) => !skip.includes(date));
  if (kept.length < SERIES_MIN_COUNT) return { dates: null, problem: SERIES_MESSAGES.tooFewLeft };
  return { dates: kept, problem: null };
}

/** A percentage off every session, a fixed amount once (decision 0104). */
export function couponForSession<T extends { type: string }>(
  coupon: T | null,
  index: number,
): T | null {
  if (coupon === null) return null;
  return coupon.type === "PERCENTAGE" || index === 0 ? coupon : null;
}
