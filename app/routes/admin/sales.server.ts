import { stringify } from "csv-stringify/sync";
import { CUSTOMER_TYPE_LABELS } from "#app/domain/customer-type";
import { formatDollars } from "#app/domain/pricing";
import {
  PERIOD_LABELS,
  type PeriodChoice,
  type PeriodReading,
  periodParams,
  periodRange,
  periodSlug,
  readPeriod,
} from "#app/domain/sales-period";
import { STUDIO_TIME_ZONE } from "#app/domain/studio-time";
import {
  listSales,
  type SalesCursor,
  type SalesRow,
  salesAfter,
  salesChart,
  salesTotals,
} from "#app/models/sales.server";
import { readPage } from "#app/models/pagination.server";
import { toPaymentJson } from "#app/routes/api/json/payment";

/**
 * Studio wall time as admins read it ('MMMM d, yyyy', 'h:mm a') and as the CSV writes it
 * (yyyy-MM-dd HH:mm:ss). Intl formatters made once: a page formats 50 instants and an export
 * 100,000, and date-fns with a TZDate per instant costs about 40 µs each.
 */
const STUDIO = { timeZone: STUDIO_TIME_ZONE } as const;
const DAY_FORMAT = new Intl.DateTimeFormat("en-US", { ...STUDIO, dateStyle: "long" });
const TIME_FORMAT = new Intl.DateTimeFormat("en-US", {
  ...STUDIO,
  hour: "numeric",
  minute: "2-digit",
  hour12: true,
});
const CSV_FORMAT = new Intl.DateTimeFormat("en-CA", {
  ...STUDIO,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});
// Recent ICU writes a narrow no-break space before AM/PM; the admin format has a plain one.
const studioDay = (at: number) => DAY_FORMAT.format(at);
const studioTime = (at: number) => TIME_FORMAT.format(at).replace(/\s/g, " ");
function csvDate(at: number): string {
  const part = Object.fromEntries(CSV_FORMAT.formatToParts(at).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
}

/**
 * The Sales tab, its CSV export and GET /api/admin/payments read a period the same way (the
 * query string of `readPeriod`) and the same model functions.
 */
export function loadSalesTab(url: URL, now: number) {
  const reading = readPeriod(url.searchParams);
  if (!reading.ok) return { ok: false as const, errors: reading.errors, raw: reading.raw };
  const { choice } = reading;
  const range = periodRange(choice, now);
  const page = listSales(range, readPage(url));
  const chart = salesChart(choice, range, now);
  return {
    ok: true as const,
    choice,
    label: PERIOD_LABELS[choice.period],
    totals: salesTotals(range),
    chart: chart && {
      unit: chart.unit,
      bars: chart.bars.map((bar) => ({
        label: bar.label,
        longLabel: bar.longLabel,
        total: bar.total,
      })),
    },
    rows: page.rows.map((row) => ({
      id: row.id,
      client: row.client,
      date: studioDay(row.paymentDate),
      time: studioTime(row.paymentDate),
      amount: formatDollars(row.amount),
      isRefund: row.amount < 0,
      type: CUSTOMER_TYPE_LABELS[row.type],
    })),
    page: page.page,
    hasNext: page.hasNext,
    exportHref: `/admin/sales/export?${periodParams(choice)}`,
  };
}
export type SalesTabData = ReturnType<typeof loadSalesTab>;

/** A refused period as the API and the export answer it: the first message and every field's. */
export function periodError(reading: Extract<PeriodReading, { ok: false }>) {
  const messages = Object.values(reading.errors).flat();
  return { message: messages[0] ?? "Invalid period", errors: reading.errors };
}

/**
 * GET /api/admin/payments: one page of the {id, bookingId, amount, paymentDate} of
 * docs/product.md "The JSON API".
 */
export function paymentsPage(
  choice: PeriodChoice,
  page: number,
  now: number,
  size = API_PAGE_SIZE,
) {
  const result = listSales(periodRange(choice, now), page, size);
  return { payments: result.rows.map(toPaymentJson), hasNext: result.hasNext };
}

/**
 * The whole period for GET /api/admin/payments without paging: the payments walked by key,
 * newest first, as the CSV export walks them.
 */
export function paymentsWalk(choice: PeriodChoice, now: number) {
  const range = periodRange(choice, now);
  return {
    next: (cursor: SalesCursor | null, limit: number) => salesAfter(range, cursor, limit),
    keyOf: (row: SalesRow): SalesCursor => ({ paymentDate: row.paymentDate, id: row.id }),
    toJson: toPaymentJson,
  };
}
export const API_PAGE_SIZE = 100;

const CSV_COLUMNS = [
  { key: "id", header: "Payment ID" },
  { key: "bookingId", header: "Booking ID" },
  { key: "date", header: "Date (Atlanta time)" },
  { key: "client", header: "Client" },
  { key: "type", header: "Type" },
  { key: "amount", header: "Amount (USD)" },
  { key: "method", header: "Method" },
];
/** Rows read per step of the export: the memory held at once, whatever the period's size. */
export const CSV_CHUNK_ROWS = 1000;

function csvRecord(row: SalesRow) {
  return {
    id: row.id,
    bookingId: row.bookingId,
    date: csvDate(row.paymentDate),
    client: row.client,
    type: CUSTOMER_TYPE_LABELS[row.type],
    // A number, never text: a refund's minus sign is a sign, not a formula.
    amount: row.amount,
    method: row.method,
  };
}

/**
 * The period's payments as CSV, streamed: each pull reads the next chunk after the last row
 * sent (by key), so a 100,000-row export never sits in memory as one string. Text cells that
 * a spreadsheet would run as a formula (starting with = + - @ tab or CR) get a leading
 * apostrophe (csv-stringify's escape_formulas).
 */
export function salesCsv(choice: PeriodChoice, now: number) {
  const range = periodRange(choice, now);
  const encoder = new TextEncoder();
  let cursor: SalesCursor | null = null;
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const rows = salesAfter(range, cursor, CSV_CHUNK_ROWS);
      const text = stringify(rows.map(csvRecord), {
        header: first,
        columns: CSV_COLUMNS,
        escape_formulas: true,
        record_delimiter: "windows",
      });
      first = false;
      if (text) controller.enqueue(encoder.encode(text));
      const last = rows.at(-1);
      if (!last || rows.length < CSV_CHUNK_ROWS) {
        controller.close();
        return;
      }
      cursor = { paymentDate: last.paymentDate, id: last.id };
    },
  });
  return { body, filename: `sales-${periodSlug(choice)}.csv` };
}
