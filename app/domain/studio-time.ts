import { TZDate, tzOffset } from "@date-fns/tz";
import { addDays, format } from "date-fns";

/**
 * Studio wall time. Every date and time a customer or admin types or reads is local to the
 * studio in Atlanta, whatever the zone of the server or the browser; instants are UTC epoch
 * milliseconds. Pure functions, safe on the server and in the browser.
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
 * The instant at which the studio's clocks show `date` `time`.
 *
 * Daylight-saving edges resolve the way a wall clock does, whatever the process zone:
 * - a time that does not exist (2026-03-08 02:30, the hour skipped in spring) is moved forward
 *   by the gap, to 03:30 EDT (07:30Z), as @date-fns/tz does; `isStudioWallTime` tells a caller
 *   that wants to refuse such a start instead;
 * - a time that happens twice (2026-11-01 01:30, the hour repeated in autumn) is its first
 *   occurrence, 01:30 EDT (05:30Z).
 *
 * Not `new TZDate(y, m, d, h, min, zone)`: for a repeated hour its answer depends on the
 * process zone (under TZ=America/Los_Angeles it picks the second 01:30), so the offset is
 * resolved here from `tzOffset`, which only asks Intl about the studio's zone.
 *
 * Throws a RangeError for text that is not a yyyy-MM-dd date or an HH:MM time.
 */
export function studioInstant(date: string, time: string): number {
  return instants(`${date} ${time}`, () => resolveStudioInstant(date, time));
}

/**
 * Asking Intl for offsets and formatting in the studio's zone are the costly part of every
 * availability answer (24 starts, each checked and resolved), and the answer for a date and
 * time never changes: the recent ones are kept, up to a bound.
 */
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

/**
 * The studio's wall clock, made once: a formatter per call (what a TZDate and date-fns' format
 * amount to) costs more than the rest of a page's date work, and lists read it for every row.
 */
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

/** The studio-local calendar day (yyyy-MM-dd) of an instant. */
export function studioDateOf(epochMs: number): string {
  return studioWallClock(epochMs).date;
}

/** The studio-local clock time (HH:mm) of an instant. */
export function studioTimeOf(epochMs: number): string {
  return studioWallClock(epochMs).time;
}

/** Calendar arithmetic on studio days: `n` may be negative. */
export function addStudioDays(date: string, n: number): string {
  const [year, monthIndex, day] = parseDate(date);
  // Noon is never inside a daylight-saving transition, so adding days cannot slip a date.
  const noon = new TZDate(year, monthIndex, day, 12, 0, STUDIO_TIME_ZONE);
  return format(addDays(noon, n), "yyyy-MM-dd");
}

/**
 * Start and end instants of a session. Hours are elapsed hours (what is billed), so a
 * 4-hour session from 00:00 on the spring-forward day ends at 05:00 on the clock.
 */
export function studioSession(
  date: string,
  time: string,
  hours: number,
): { startsAt: number; endsAt: number } {
  const startsAt = studioInstant(date, time);
  return { startsAt, endsAt: startsAt + hours * HOUR_MS };
}
