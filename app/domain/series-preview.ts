import { START_TIMES } from "#app/domain/availability";
import { BOOKING_MESSAGES, quoteQuerySchema } from "#app/domain/booking-form";
import { SERIES_MESSAGES } from "#app/domain/series";
import { isSeriesStart, seriesCountSchema } from "#app/domain/series-form";
import { SERIES_REPEATS } from "#app/domain/series-repeat";
import { z } from "#app/domain/zod";

/** Null when any part is missing or out of range: no preview is shown yet. */
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

export type SeriesPreview = SeriesPreviewQuery & {
  occurrences: {
    recordingDate: string;
    problem: "taken" | "too-soon" | "skipped" | "too-far" | null;
    alternatives: string[];
  }[];
};
