import { and, asc, desc, eq, gte, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { bookings, payments, salesRollup } from "#db/schema";
import type { CustomerType } from "#app/domain/customer-type";
import { db } from "#app/db.server";
import { clientName, customerTypeOf } from "#app/domain/customer-type";
import { BLOCK_LEVELS, BLOCK_MS, blockRuns } from "#app/domain/rollup-blocks";
import { type ChartBucket, type ChartUnit, chartBuckets } from "#app/domain/sales-chart";
import { type PeriodChoice, type PeriodRange, periodDays } from "#app/domain/sales-period";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";

/** docs/product.md "Sales figures": totals and the chart read the rollup; lists read payments through the payment-date index. */
export type SalesTotals = {
  total: number;
  stakeholder: number;
  member: number;
  nonMember: number;
};

const TOP_LEVEL = BLOCK_LEVELS - 1;
const TOP_MS = BLOCK_MS[TOP_LEVEL] as number;
const ZERO: SalesTotals = { total: 0, stakeholder: 0, member: 0, nonMember: 0 };

type Run = { key: number; level: number; from: number; to: number };

/** One statement: the runs go in as JSON, each a range of the rollup's primary key. */
function sumRuns(runs: Run[]): Map<number, SalesTotals> {
  const sums = new Map<number, SalesTotals>();
  if (runs.length === 0) return sums;
  const rows = db.all<{
    key: number;
    stakeholder: number;
    member: number;
    nonMember: number;
  }>(sql`
    SELECT json_extract(k.value, '$[0]') AS key,
      sum(r.stakeholder) AS stakeholder, sum(r.member) AS member, sum(r.non_member) AS nonMember
    FROM json_each(${JSON.stringify(runs.map((run) => [run.key, run.level, run.from, run.to]))}) k
    JOIN ${salesRollup} r
      ON r.level = json_extract(k.value, '$[1]')
      AND r.bucket_start >= json_extract(k.value, '$[2]')
      AND r.bucket_start < json_extract(k.value, '$[3]')
    GROUP BY 1`);
  for (const row of rows) {
    sums.set(row.key, {
      stakeholder: row.stakeholder,
      member: row.member,
      nonMember: row.nonMember,
      total: row.stakeholder + row.member + row.nonMember,
    });
  }
  return sums;
}

function rollupExtent(): { start: number; end: number } | null {
  const row = db
    .select({
      first: sql<number | null>`min(${salesRollup.bucketStart})`,
      last: sql<number | null>`max(${salesRollup.bucketStart})`,
    })
    .from(salesRollup)
    .where(eq(salesRollup.level, TOP_LEVEL))
    .get();
  if (row?.first == null || row.last == null) return null;
  return { start: row.first, end: row.last + TOP_MS };
}

function closedRange(range: PeriodRange): { start: number; end: number } | null {
  const extent = range.start === null || range.end === null ? rollupExtent() : null;
  const start = range.start ?? extent?.start;
  const end = range.end ?? extent?.end;
  if (start === undefined || end === undefined || start >= end) return null;
  return { start, end };
}

export function salesTotals(range: PeriodRange): SalesTotals {
  const closed = closedRange(range);
  if (!closed) return ZERO;
  // An open side is closed at a top-level block boundary, so All Time reads top blocks only.
  const runs = blockRuns(closed.start, closed.end).map((run) => ({ key: 0, ...run }));
  return sumRuns(runs).get(0) ?? ZERO;
}

export type SalesRow = {
  id: number;
  bookingId: number;
  amount: number;
  paymentDate: number;
  method: string;
  client: string;
  type: CustomerType;
};

function inRange(range: PeriodRange): SQL[] {
  const conditions: SQL[] = [];
  if (range.start !== null) conditions.push(gte(payments.paymentDate, range.start));
  if (range.end !== null) conditions.push(lt(payments.paymentDate, range.end));
  return conditions;
}

function salesQuery(conditions: SQL[]) {
  return db
    .select({
      id: payments.id,
      bookingId: payments.bookingId,
      amount: payments.amount,
      paymentDate: payments.paymentDate,
      method: payments.paymentMethod,
      customerType: payments.customerType,
      firstName: bookings.firstName,
      lastName: bookings.lastName,
    })
    .from(payments)
    .leftJoin(bookings, eq(bookings.id, payments.bookingId))
    .where(and(...conditions))
    .orderBy(desc(payments.paymentDate), desc(payments.id));
}

type QueryRow = Awaited<ReturnType<ReturnType<typeof salesQuery>["all"]>>[number];

function toSalesRow(row: QueryRow): SalesRow {
  return {
    id: row.id,
    bookingId: row.bookingId,
    amount: row.amount,
    paymentDate: row.paymentDate,
    method: row.method,
    client: clientName(row.firstName, row.lastName),
    type: customerTypeOf(row.customerType),
  };
}

export function listSales(range: PeriodRange, page: number, size?: number): Page<SalesRow> {
  const { limit, offset } = pageWindow(page, size);
  const rows = salesQuery(inRange(range)).limit(limit).offset(offset).all();
  return toPage(rows.map(toSalesRow), page, size);
}

export type SalesCursor = { paymentDate: number; id: number };

/** By key, not by offset, so each step is an index range however deep. */
export function salesAfter(range: PeriodRange, cursor: SalesCursor | null, limit: number) {
  const conditions = inRange(range);
  if (cursor) {
    conditions.push(lte(payments.paymentDate, cursor.paymentDate));
    conditions.push(
      or(lt(payments.paymentDate, cursor.paymentDate), lt(payments.id, cursor.id)) as SQL,
    );
  }
  return salesQuery(conditions).limit(limit).all().map(toSalesRow);
}

export type ChartBar = ChartBucket & SalesTotals;
export type SalesChart = { unit: ChartUnit; bars: ChartBar[] } | null;

/** A current period is not drawn into the future. Null when the period holds no payment days. */
export function salesChart(choice: PeriodChoice, range: PeriodRange, now: number): SalesChart {
  const closed = closedRange(range);
  if (!closed) return null;
  const days = periodDays(choice, now);
  const tomorrow = addStudioDays(studioDateOf(now), 1);
  let first = days.first;
  let afterLast = days.afterLast;
  if (choice.period === "all" || choice.period === "custom") {
    const span = paymentSpan(range);
    if (!span) return null;
    if (first === null || first < span.first) first = span.first;
    if (afterLast === null || afterLast > span.afterLast) afterLast = span.afterLast;
  } else if (afterLast !== null && afterLast > tomorrow) {
    afterLast = tomorrow;
  }
  if (first === null || afterLast === null || first >= afterLast) return null;
  const { unit, buckets } = chartBuckets(first, afterLast);
  const runs = buckets.flatMap((bucket, key) =>
    blockRuns(bucket.start, bucket.end).map((run) => ({ key, ...run })),
  );
  const sums = sumRuns(runs);
  return {
    unit,
    bars: buckets.map((bucket, key) => ({ ...bucket, ...(sums.get(key) ?? ZERO) })),
  };
}

/** Two look-ups at the index's ends: min() and max() in one SELECT would scan the range. */
function paymentSpan(range: PeriodRange): { first: string; afterLast: string } | null {
  const end = (order: typeof asc) =>
    db
      .select({ at: payments.paymentDate })
      .from(payments)
      .where(and(...inRange(range)))
      .orderBy(order(payments.paymentDate))
      .limit(1)
      .get()?.at;
  const first = end(asc);
  const last = end(desc);
  if (first === undefined || last === undefined) return null;
  return { first: studioDateOf(first), afterLast: addStudioDays(studioDateOf(last), 1) };
}
