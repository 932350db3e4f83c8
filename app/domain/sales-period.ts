import { addStudioDays, studioDateOf, studioInstant } from "#app/domain/studio-time";

/**
 * The Sales tab's period (docs/product.md "Sales period filter") as the half-open span
 * [start, end) of studio time. "This Week" and the like end where the week ends, not now: the same
 * payments (none is recorded ahead of the clock), and both bounds stay on a studio midnight, which
 * is always a whole UTC hour, as the sales rollup needs.
 */
export const SALES_PERIODS = ["all", "today", "week", "month", "ytd", "custom"] as const;
export type SalesPeriod = (typeof SALES_PERIODS)[number];

export const PERIOD_LABELS: Record<SalesPeriod, string> = {
  all: "All Time",
  today: "Today",
  week: "This Week",
  month: "This Month",
  ytd: "Year to Date",
  custom: "Custom Range",
};

export const PERIOD_MESSAGES = {
  period: "Choose one of the listed periods",
  date: "Enter a date as yyyy-mm-dd",
  order: "The end date must be on or after the start date",
} as const;

export type PeriodChoice = { period: SalesPeriod; from: string | null; to: string | null };
export type PeriodErrors = Partial<Record<"period" | "from" | "to", string[]>>;
export type PeriodReading =
  | { ok: true; choice: PeriodChoice }
  | { ok: false; errors: PeriodErrors; raw: { period: string; from: string; to: string } };

export type PeriodRange = { start: number | null; end: number | null };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Narrow enough that the day after the last is still a four-digit year. */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2999;

export function isStudioDay(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < FIRST_YEAR || year > LAST_YEAR) return false;
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/** No period is All Time, the tab's opening view; a refused one computes nothing. */
export function readPeriod(params: URLSearchParams): PeriodReading {
  const raw = {
    period: (params.get("period") ?? "").trim(),
    from: (params.get("from") ?? "").trim(),
    to: (params.get("to") ?? "").trim(),
  };
  const period = raw.period === "" ? "all" : raw.period;
  if (!(SALES_PERIODS as readonly string[]).includes(period)) {
    return { ok: false, errors: { period: [PERIOD_MESSAGES.period] }, raw };
  }
  if (period !== "custom")
    return { ok: true, choice: { period: period as SalesPeriod, from: null, to: null } };
  const errors: PeriodErrors = {};
  if (raw.from !== "" && !isStudioDay(raw.from)) errors.from = [PERIOD_MESSAGES.date];
  if (raw.to !== "" && !isStudioDay(raw.to)) errors.to = [PERIOD_MESSAGES.date];
  if (!errors.from && !errors.to && raw.from !== "" && raw.to !== "" && raw.from > raw.to) {
    errors.to = [PERIOD_MESSAGES.order];
  }
  if (errors.from || errors.to) return { ok: false, errors, raw };
  return {
    ok: true,
    choice: { period: "custom", from: raw.from || null, to: raw.to || null },
  };
}

const midnight = (day: string) => studioInstant(day, "00:00");

export function weekStart(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  const weekday = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, date ?? 1)).getUTCDay();
  return addStudioDays(day, -weekday);
}

export function monthStart(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

export function nextMonthStart(day: string): string {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
}

export function yearStart(day: string): string {
  return `${day.slice(0, 4)}-01-01`;
}

export function nextYearStart(day: string): string {
  return `${Number(day.slice(0, 4)) + 1}-01-01`;
}

export function periodDays(
  choice: PeriodChoice,
  now: number,
): { first: string | null; afterLast: string | null } {
  const today = studioDateOf(now);
  switch (choice.period) {
    case "all":
      return { first: null, afterLast: null };
    case "today":
      return { first: today, afterLast: addStudioDays(today, 1) };
    case "week": {
      const first = weekStart(today);
      return { first, afterLast: addStudioDays(first, 7) };
    }
    case "month":
      return { first: monthStart(today), afterLast: nextMonthStart(today) };
    case "ytd":
      return { first: yearStart(today), afterLast: nextYearStart(today) };
    case "custom":
      return {
        first: choice.from,
        afterLast: choice.to === null ? null : addStudioDays(choice.to, 1),
      };
  }
}

export function periodRange(choice: PeriodChoice, now: number): PeriodRange {
  const { first, afterLast } = periodDays(choice, now);
  return {
    start: first === null ? null : midnight(first),
    end: afterLast === null ? null : midnight(afterLast),
  };
}

export function periodParams(choice: PeriodChoice): URLSearchParams {
  const params = new URLSearchParams({ period: choice.period });
  if (choice.period === "custom") {
    if (choice.from) params.set("from", choice.from);
    if (choice.to) params.set("to", choice.to);
  }
  return params;
}

export function periodSlug(choice: PeriodChoice): string {
  if (choice.period !== "custom") return choice.period;
  return `custom-${choice.from ?? "start"}-to-${choice.to ?? "now"}`;
}
