/** docs/product.md "Weekly series"; db/schema.ts builds its column and CHECK from this list. */
export const SERIES_REPEATS = ["week", "2weeks"] as const;
export type SeriesRepeat = (typeof SERIES_REPEATS)[number];

/** Counted on studio dates, so 7 PM stays 7 PM. */
export const SERIES_REPEAT_DAYS: Record<SeriesRepeat, number> = { week: 7, "2weeks": 14 };

export const SERIES_MIN_COUNT = 2;
export const SERIES_MAX_COUNT = 12;
