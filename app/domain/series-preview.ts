import { START_TIMES } from "#app/domain/availability";
import { BOOKING_MESSAGES, quoteQuerySchema } from "#app/domain/booking-form";
import { SERIES_MESSAGES } from "#app/domain/series";
import { isSeriesStart, seriesCountSchema } from "#app/domain/series-form";
import { SERIES_REPEATS } from "#app/domain/series-repeat";
import { z } from "#app/domain/zod";

/**
 * The parts of the form a series' preview needs (GET /api/availability/series and the form's
 * "Check dates"): null when any is missing or out of range, so no preview is shown yet.
 */
export const seriesPreviewQuerySchema = z.object({
  date: z.string({ error: BOOKING_MESSAGES.date }).refine(isSeriesStart, BOOKING_MESSAGES.date),
  time: z
    .string({ error: BOOKING_MESSAGES.time })
    .refine((time) => START_TIMES.includes(time), BOOKING_MESSAGES.time),
  hours: quoteQuerySchema.shape.hours,
  every: z.enum(SERIES_REPEATS, { error: SERIES_MESSAGES.repeat }),
  count: seriesCountSchema,
});
export type SeriesPreviewQuery = z.output<typeof seriesPreviewQuerySchema>;

/** The preview as the form shows it: every session, free or not, with the nearest free times. */
export type SeriesPreview = SeriesPreviewQuery & {
  occurrences: {
    recordingDate: string;
    problem: "taken" | "too-soon" | "skipped" | "too-far" | null;
    alternatives: string[];
  }[];
};
