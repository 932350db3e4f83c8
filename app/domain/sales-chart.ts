import {
  monthStart,
  nextMonthStart,
  nextYearStart,
  weekStart,
  yearStart,
} from "#app/domain/sales-period";
import { studioInstant } from "#app/domain/studio-time";

/** The first and last bars are cut to the period, so the bars add up to its total. */
export type ChartUnit = "day" | "week" | "month" | "year";
export type ChartBucket = {
  /** Studio midnights. */
  start: number;
  end: number;
  label: string;
  longLabel: string;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** Plain calendar arithmetic: addStudioDays goes through the zone's noon, which adds up here. */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

function daysBetween(first: string, afterLast: string): number {
  return Math.round(
    (Date.parse(`${afterLast}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / DAY_MS,
  );
}

/** Up to 45 days by day, up to 200 by week, up to about three years by month, then by year. */
export function chartUnit(first: string, afterLast: string): ChartUnit {
  const days = daysBetween(first, afterLast);
  if (days <= 45) return "day";
  if (days <= 200) return "week";
  if (days <= 1100) return "month";
  return "year";
}

const UNIT_START: Record<ChartUnit, (day: string) => string> = {
  day: (day) => day,
  week: weekStart,
  month: monthStart,
  year: yearStart,
};
const UNIT_NEXT: Record<ChartUnit, (start: string) => string> = {
  day: (day) => addDays(day, 1),
  week: (day) => addDays(day, 7),
  month: nextMonthStart,
  year: nextYearStart,
};

/** Read as calendar dates, never in the process zone; made once, as a formatter costs. */
const FORMATS = {
  long: { month: "long", day: "numeric", year: "numeric" },
  short: { month: "short", day: "numeric" },
  shortMonth: { month: "short", year: "2-digit" },
  longMonth: { month: "long", year: "numeric" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
const FORMATTERS = Object.fromEntries(
  Object.entries(FORMATS).map(([name, options]) => [
    name,
    new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" }),
  ]),
) as Record<keyof typeof FORMATS, Intl.DateTimeFormat>;

function written(day: string, format: keyof typeof FORMATS): string {
  return FORMATTERS[format].format(new Date(`${day}T12:00:00Z`));
}

function labels(unit: ChartUnit, day: string): { label: string; longLabel: string } {
  const long = written(day, "long");
  switch (unit) {
    case "day":
      return { label: written(day, "short"), longLabel: long };
    case "week":
      return { label: written(day, "short"), longLabel: `Week of ${long}` };
    case "month":
      return { label: written(day, "shortMonth"), longLabel: written(day, "longMonth") };
    case "year":
      return { label: day.slice(0, 4), longLabel: day.slice(0, 4) };
  }
}

export function chartBuckets(
  first: string,
  afterLast: string,
): { unit: ChartUnit; buckets: ChartBucket[] } {
  const unit = chartUnit(first, afterLast);
  const buckets: ChartBucket[] = [];
  for (let cursor = UNIT_START[unit](first); cursor < afterLast; cursor = UNIT_NEXT[unit](cursor)) {
    const from = cursor < first ? first : cursor;
    const next = UNIT_NEXT[unit](cursor);
    const to = next > afterLast ? afterLast : next;
    buckets.push({
      start: studioInstant(from, "00:00"),
      end: studioInstant(to, "00:00"),
      ...labels(unit, from),
    });
  }
  return { unit, buckets };
}
