/**
 * How often a weekly series repeats (docs/product.md "Weekly series"). The database's column and
 * CHECK constraint (db/schema.ts) are built from this list; the API takes the same words.
 */
export const SERIES_REPEATS = ["week", "2weeks"] as const;
export type SeriesRepeat = (typeof SERIES_REPEATS)[number];

/** Days between two sessions of a series. Counted on studio dates, so 7 PM stays 7 PM. */
export const SERIES_REPEAT_DAYS: Record<SeriesRepeat, number> = { week: 7, "2weeks": 14 };

/** A series has 2 to 12 sessions. */
export const SERIES_MIN_COUNT = 2;
export const SERIES_MAX_COUNT = 12;
