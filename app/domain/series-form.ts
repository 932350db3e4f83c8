import { SERIES_MESSAGES } from "#app/domain/series";
import { SERIES_MAX_COUNT, SERIES_MIN_COUNT, SERIES_REPEATS } from "#app/domain/series-repeat";
import { z } from "#app/domain/zod";

/**
 * The "Repeat" part of a booking (docs/product.md "Weekly series"), form and API alike; "No
 * repeat" posts `repeat.every=none`, no series at all.
 */
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Early enough that twelve sessions later is still a yyyy-MM-dd date. */
export function isSeriesStart(date: string): boolean {
  if (!DATE_PATTERN.test(date) || date >= "9999-01-01") return false;
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date);
}

export const seriesCountSchema = z.preprocess(
  (value) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value),
  z
    .number({ error: SERIES_MESSAGES.count })
    .int(SERIES_MESSAGES.count)
    .min(SERIES_MIN_COUNT, SERIES_MESSAGES.count)
    .max(SERIES_MAX_COUNT, SERIES_MESSAGES.count),
);

/** Checkboxes post one value, several, or none. */
const skip = z.preprocess(
  (value) => (value === undefined || value === null || value === "" ? [] : [value].flat()),
  z
    .array(z.string({ error: SERIES_MESSAGES.skip }).regex(DATE_PATTERN, SERIES_MESSAGES.skip), {
      error: SERIES_MESSAGES.skip,
    })
    .max(SERIES_MAX_COUNT, SERIES_MESSAGES.skip)
    .transform((dates) => [...new Set(dates)]),
);

export const seriesRepeatSchema = z.preprocess(
  (value) =>
    value !== null && typeof value === "object" && (value as { every?: unknown }).every === "none"
      ? undefined
      : value,
  z
    .object(
      {
        every: z.enum(SERIES_REPEATS, { error: SERIES_MESSAGES.repeat }),
        count: seriesCountSchema,
        skip,
      },
      { error: SERIES_MESSAGES.repeat },
    )
    .meta({
      description:
        "A weekly series: `every` week or 2 weeks, `count` 2-12 sessions from recordingDate at the same studio time; `skip` the series' dates to leave out (taken ones, say). All its sessions are booked, or none.",
    })
    .optional(),
);

export type SeriesRepeatRequest = NonNullable<z.output<typeof seriesRepeatSchema>>;

/** What BOOKING_RATE_LIMIT counts (docs/product.md "Booking"). */
export function sessionsAsked(repeat: SeriesRepeatRequest | undefined): number {
  return repeat ? Math.max(1, repeat.count - repeat.skip.length) : 1;
}
