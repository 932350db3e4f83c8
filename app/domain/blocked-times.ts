import { isStudioWallTime, studioInstant } from "#app/domain/studio-time";
import { readNow, type SchemaNow, z } from "#app/domain/zod";

/** docs/product.md "Blocked times". Pure: the caller passes `now`. */
export const BLOCK_LIMITS = {
  reasonMax: 200,
  /** Longer than any holiday, short enough to catch a mistyped year. */
  maxDays: 366,
} as const;

const DAY_MS = 24 * 60 * 60_000;

export const BLOCK_MESSAGES = {
  startDate: "Please enter the first day of the block",
  startTime: "Please enter the time the block starts",
  endDate: "Please enter the last day of the block",
  endTime: "Please enter the time the block ends",
  skipped: "This time does not exist in Atlanta on that day (the clocks spring forward)",
  order: "The end must be after the start",
  past: "This range is already over: only times still to come can be blocked",
  tooLong: `A block may last at most ${BLOCK_LIMITS.maxDays} days`,
  reason: "Please say why the studio is closed",
  reasonLong: `Please keep the reason under ${BLOCK_LIMITS.reasonMax} characters`,
} as const;

function calendarDate(message: string) {
  return z
    .string({ error: message })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((date) => {
      const [year, month, day] = date.split("-").map(Number);
      const probe = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1));
      return (
        year !== undefined &&
        year >= 2000 &&
        probe.getUTCFullYear() === year &&
        probe.getUTCMonth() === (month ?? 0) - 1 &&
        probe.getUTCDate() === day
      );
    }, message);
}

/** A time input may add seconds (":00"), which are dropped. */
function clockTime(message: string) {
  return z
    .string({ error: message })
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d(:00(\.0+)?)?$/, message)
    .transform((time) => time.slice(0, 5));
}

/** A block already over is refused: it would change nothing. */
export function blockedTimeSchema(now: SchemaNow) {
  return z
    .object({
      startDate: calendarDate(BLOCK_MESSAGES.startDate),
      startTime: clockTime(BLOCK_MESSAGES.startTime),
      endDate: calendarDate(BLOCK_MESSAGES.endDate),
      endTime: clockTime(BLOCK_MESSAGES.endTime),
      reason: z
        .string({ error: BLOCK_MESSAGES.reason })
        .trim()
        .min(1, BLOCK_MESSAGES.reason)
        .max(BLOCK_LIMITS.reasonMax, BLOCK_MESSAGES.reasonLong),
    })
    .transform((value, context) => {
      let valid = true;
      for (const [date, time, path] of [
        [value.startDate, value.startTime, "startTime"],
        [value.endDate, value.endTime, "endTime"],
      ] as const) {
        if (!isStudioWallTime(date, time)) {
          context.addIssue({ code: "custom", path: [path], message: BLOCK_MESSAGES.skipped });
          valid = false;
        }
      }
      if (!valid) return z.NEVER;
      const startsAt = studioInstant(value.startDate, value.startTime);
      const endsAt = studioInstant(value.endDate, value.endTime);
      const problem =
        endsAt <= startsAt
          ? BLOCK_MESSAGES.order
          : endsAt <= readNow(now)
            ? BLOCK_MESSAGES.past
            : endsAt - startsAt > BLOCK_LIMITS.maxDays * DAY_MS
              ? BLOCK_MESSAGES.tooLong
              : null;
      if (problem) {
        context.addIssue({ code: "custom", path: ["endDate"], message: problem });
        return z.NEVER;
      }
      return { startsAt, endsAt, reason: value.reason };
    });
}

export type BlockedTimeInput = { startsAt: number; endsAt: number; reason: string };

export const BLOCK_LISTS = ["upcoming", "past"] as const;
export type BlockList = (typeof BLOCK_LISTS)[number];

export function blockListParam(value: string | null): BlockList {
  return BLOCK_LISTS.find((list) => list === value) ?? "upcoming";
}
