import { addStudioDays, studioDateOf, studioInstant } from "#app/domain/studio-time";

/**
 * The Sales tab's period (docs/product.md "Sales period filter", on payment date) as the
 * half-open span of instants [start, end) it covers, computed in studio time (Atlanta),
 * whatever the server's zone. Pure: the server and the page share it.
 *
 * - Today: the studio day of `now`.
 * - This Week, This Month, Year to Date: from the start of the current week, month or year.
 *   docs/product.md "Sales period filter" says "on or after" that start; the span ends where the
 *   current week, month or year ends, which includes every payment there is (a payment is recorded
 *   at the moment it is made, never ahead of the clock) and keeps both bounds at a studio midnight.
 * - Weeks start on Sunday, as in the United States and in the booking form's date picker
 *   (docs/product.md "Sales period filter": "weeks start on Sunday").
 * - Custom Range: whole studio days from `from` through `to` inclusive; a missing side is
 *   unbounded. All Time: unbounded.
 *
 * A studio midnight is always a whole UTC hour (Atlanta is UTC-5 or UTC-4 and changes at 2 am),
 * which the sales rollup relies on: every bound here is a multiple of an hour.
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

/** What the URL asks for: `period`, and for a custom range `from` and `to` (studio days). */
export type PeriodChoice = { period: SalesPeriod; from: string | null; to: string | null };
export type PeriodErrors = Partial<Record<"period" | "from" | "to", string[]>>;
export type PeriodReading =
  | { ok: true; choice: PeriodChoice }
  | { ok: false; errors: PeriodErrors; raw: { period: string; from: string; to: string } };

/** The instants a period covers; `null` is an open side. */
export type PeriodRange = { start: number | null; end: number | null };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/**
 * Wider than any studio payment, and narrow enough that the day after the last one is still a
 * four-digit year (9999-12-31 would roll over into a date nothing here can read).
 */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2999;

/** A studio calendar day written yyyy-MM-dd, in 1900-2999; anything else is not. */
export function isStudioDay(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < FIRST_YEAR || year > LAST_YEAR) return false;
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/**
 * Reads the period from a query string. No period (or an empty one) is All Time, the tab's
 * opening view; an unknown period, a date that is not a calendar day, or a range that ends
 * before it starts is refused with a message per field, and nothing is computed from it.
 * `from` and `to` only count for a custom range; blank means "no bound on that side".
 */
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

/** Sunday of the studio week that contains `day`. */
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

/** The first and the day after the last studio day of a bounded period, as yyyy-MM-dd. */
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

/** The half-open span of instants [start, end) a period covers at `now`. */
export function periodRange(choice: PeriodChoice, now: number): PeriodRange {
  const { first, afterLast } = periodDays(choice, now);
  return {
    start: first === null ? null : midnight(first),
    end: afterLast === null ? null : midnight(afterLast),
  };
}

/** The period as query parameters (the Export CSV link, the API's next page). */
export function periodParams(choice: PeriodChoice): URLSearchParams {
  const params = new URLSearchParams({ period: choice.period });
  if (choice.period === "custom") {
    if (choice.from) params.set("from", choice.from);
    if (choice.to) params.set("to", choice.to);
  }
  return params;
}

/** A file-name-safe name for the period: "month", "custom-2026-01-01-to-2026-01-31". */
export function periodSlug(choice: PeriodChoice): string {
  if (choice.period !== "custom") return choice.period;
  return `custom-${choice.from ?? "start"}-to-${choice.to ?? "now"}`;
}
