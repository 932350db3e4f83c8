import { TZDate, tzOffset } from "@date-fns/tz";
import { addDays, format } from "date-fns";

/**
 * Every date and time a person types or reads is studio wall time, whatever the server's or the
 * browser's zone; instants are UTC epoch milliseconds.
 */
export const STUDIO_TIME_ZONE = "America/New_York";

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^(\d{2}):(\d{2})$/;

function parseDate(date: string): [year: number, monthIndex: number, day: number] {
  const match = DATE_PATTERN.exec(date);
  if (!match) throw new RangeError(`Not a yyyy-MM-dd date: ${date}`);
  const year = Number(match[1]);
  const monthIndex = Number(match[2]) - 1;
  const day = Number(match[3]);
  // Date.UTC rolls 2026-02-30 over to March; a round trip catches impossible days.
  const probe = new Date(Date.UTC(year, monthIndex, day));
  if (probe.getUTCMonth() !== monthIndex || probe.getUTCDate() !== day) {
    throw new RangeError(`Not a calendar date: ${date}`);
  }
  return [year, monthIndex, day];
}

function parseTime(time: string): [hours: number, minutes: number] {
  const match = TIME_PATTERN.exec(time);
  const hours = Number(match?.[1]);
  const minutes = Number(match?.[2]);
  if (!match || hours > 23 || minutes > 59) throw new RangeError(`Not an HH:MM time: ${time}`);
  return [hours, minutes];
}

/**
 * Daylight-saving edges resolve as a wall clock does: a skipped time (2026-03-08 02:30) moves
 * forward by the gap (`isStudioWallTime` lets a caller refuse it), a repeated one (2026-11-01
 * 01:30) is its first occurrence. Not `new TZDate(...)`: for a repeated hour its answer depends
 * on the process zone, so the offset comes from `tzOffset`, which asks only about the studio's.
 */
export function studioInstant(date: string, time: string): number {
  return instants(`${date} ${time}`, () => resolveStudioInstant(date, time));
}

/** Intl's offsets are the costly part of every availability answer, and never change. */
function remembered<T>(limit: number) {
  const known = new Map<string, T>();
  return (key: string, compute: () => T): T => {
    if (known.has(key)) return known.get(key) as T;
    const value = compute();
    if (known.size >= limit) known.clear();
    known.set(key, value);
    return value;
  };
}
const instants = remembered<number>(10_000);
const wallTimes = remembered<boolean>(10_000);

function resolveStudioInstant(date: string, time: string): number {
  const [year, monthIndex, day] = parseDate(date);
  const [hours, minutes] = parseTime(time);
  const wall = Date.UTC(year, monthIndex, day, hours, minutes);
  // Offsets change at most twice a year, so the ones a day either side are the only candidates.
  const offsetBefore = tzOffset(STUDIO_TIME_ZONE, new Date(wall - DAY_MS));
  const offsetAfter = tzOffset(STUDIO_TIME_ZONE, new Date(wall + DAY_MS));
  const matches = [offsetBefore, offsetAfter]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter(
      (instant) => wall - tzOffset(STUDIO_TIME_ZONE, new Date(instant)) * MINUTE_MS === instant,
    );
  // A repeated time matches twice: the earlier instant. A skipped time matches never: read it
  // with the offset in force before the jump, which lands the length of the gap later.
  return matches.length > 0 ? Math.min(...matches) : wall - offsetBefore * MINUTE_MS;
}

/** False for a wall time the studio's clocks skip (the spring-forward hour). */
export function isStudioWallTime(date: string, time: string): boolean {
  return wallTimes(`${date} ${time}`, () => {
    const instant = studioInstant(date, time);
    return studioDateOf(instant) === date && studioTimeOf(instant) === time;
  });
}

/** Made once: a formatter per call would cost more than the rest of a page's date work. */
const studioClock = new Intl.DateTimeFormat("en-US", {
  timeZone: STUDIO_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
});

function studioWallClock(epochMs: number) {
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of studioClock.formatToParts(epochMs)) part[type] = value;
  return {
    date: `${(part.year ?? "").padStart(4, "0")}-${part.month}-${part.day}`,
    time: `${part.hour}:${part.minute}`,
  };
}

export function studioDateOf(epochMs: number): string {
  return studioWallClock(epochMs).date;
}

export function studioTimeOf(epochMs: number): string {
  return studioWallClock(epochMs).time;
}

export function addStudioDays(date: string, n: number): string {
  const [year, monthIndex, day] = parseDate(date);
  // Noon is never inside a daylight-saving transition, so adding days cannot slip a date.
  const noon = new TZDate(year, monthIndex, day, 12, 0, STUDIO_TIME_ZONE);
  return format(addDays(noon, n), "yyyy-MM-dd");
}

/** Hours are elapsed hours (what is billed), also across a clock change. */
export function studioSession(
  date: string,
  time: string,
  hours: number,
): { startsAt: number; endsAt: number } {
  const startsAt = studioInstant(date, time);
  return { startsAt, endsAt: startsAt + hours * HOUR_MS };
}
