import { and, eq, gte, lt, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bookings, payments, receipts, salesRollup, users } from "#db/schema";
import { db } from "#app/db.server";
import { BLOCK_LEVELS } from "#app/domain/rollup-blocks";
import { type PeriodChoice, periodRange } from "#app/domain/sales-period";
import { studioInstant, studioSession } from "#app/domain/studio-time";
import { issueReceipt } from "#app/models/receipt.server";
import { listSales, salesAfter, salesChart, salesTotals } from "#app/models/sales.server";

/**
 * Sales figures against a real, freshly migrated SQLite file: the rollup kept by migration
 * 0005's triggers equals summing the payments, whatever happens to them; totals and periods are
 * right at studio-time edges (23:59:59.999 vs 00:00, DST days, New Year); refunds net out;
 * the customer type is taken when the money moves. Each test works in its own far-off year.
 */
const utc = (iso: string) => Date.parse(iso);
let counter = 0;

function makeUser(options: { isMember?: boolean; firstName?: string } = {}) {
  counter += 1;
  return db
    .insert(users)
    .values({
      username: `sales_${counter}`,
      passwordHash: "x",
      firstName: options.firstName ?? "Sam",
      lastName: "Seller",
      phoneNumber: "404-555-0100",
      email: `sales${counter}@example.com`,
      isMember: options.isMember ?? false,
    })
    .returning()
    .get();
}

function makeBooking(
  user: { id: number },
  options: { stakeholder?: string; firstName?: string; lastName?: string } = {},
) {
  const { startsAt, endsAt } = studioSession("2026-06-01", "10:00", 2);
  return db
    .insert(bookings)
    .values({
      userId: user.id,
      firstName: options.firstName ?? "Sam",
      lastName: options.lastName ?? "Seller",
      phoneNumber: "404-555-0100",
      email: "sam@example.com",
      stakeholder: options.stakeholder ?? "no",
      recordingDate: "2026-06-01",
      recordingTime: "10:00",
      guestCount: "1",
      hoursNeeded: "2",
      startsAt,
      endsAt,
      hourlyRate: 200,
      totalCost: 400,
      originalCost: 400,
      status: "CANCELLED",
    })
    .returning()
    .get();
}

function pay(booking: { id: number; userId: number }, amount: number, at: number) {
  counter += 1;
  // Every payment has its receipt (docs/product.md "Receipts"), as the app records them.
  return db.transaction((tx) => {
    const payment = tx
      .insert(payments)
      .values({
        bookingId: booking.id,
        userId: booking.userId,
        amount,
        paymentMethod: amount < 0 ? "refund" : "card",
        paymentDate: at,
        transactionId: `sales-test-${counter}`,
      })
      .returning()
      .get();
    issueReceipt(tx, payment.id);
    return payment;
  });
}

/** What the payments table itself says for [start, end): the truth the rollup must match. */
function directSum(start: number | null, end: number | null) {
  const conditions = [];
  if (start !== null) conditions.push(gte(payments.paymentDate, start));
  if (end !== null) conditions.push(lt(payments.paymentDate, end));
  const row = db
    .select({
      total: sql<number>`coalesce(sum(${payments.amount}), 0)`,
      stakeholder: sql<number>`coalesce(sum(CASE WHEN ${payments.customerType} = 'STAKEHOLDER' THEN ${payments.amount} END), 0)`,
      member: sql<number>`coalesce(sum(CASE WHEN ${payments.customerType} = 'MEMBER' THEN ${payments.amount} END), 0)`,
      nonMember: sql<number>`coalesce(sum(CASE WHEN ${payments.customerType} = 'NON_MEMBER' THEN ${payments.amount} END), 0)`,
    })
    .from(payments)
    .where(and(...conditions))
    .get();
  return row;
}

function everyLevelMatches() {
  const all = directSum(null, null);
  for (let level = 0; level < BLOCK_LEVELS; level += 1) {
    const row = db
      .select({
        stakeholder: sql<number>`coalesce(sum(${salesRollup.stakeholder}), 0)`,
        member: sql<number>`coalesce(sum(${salesRollup.member}), 0)`,
        nonMember: sql<number>`coalesce(sum(${salesRollup.nonMember}), 0)`,
        count: sql<number>`coalesce(sum(${salesRollup.payments}), 0)`,
      })
      .from(salesRollup)
      .where(eq(salesRollup.level, level))
      .get();
    expect(row, `level ${level}`).toEqual({
      stakeholder: all?.stakeholder,
      member: all?.member,
      nonMember: all?.nonMember,
      count: db.select({ n: sql<number>`count(*)` }).from(payments).get()?.n,
    });
  }
}

const custom = (from: string | null, to: string | null): PeriodChoice => ({
  period: "custom",
  from,
  to,
});
const totalsOf = (choice: PeriodChoice, now = Date.now()) => salesTotals(periodRange(choice, now));

describe("the sales rollup", () => {
  it("equals summing the payments after inserts, refunds, updates and deletes", () => {
    const stakeholder = makeBooking(makeUser(), { stakeholder: "Yes" });
    const member = makeBooking(makeUser({ isMember: true }));
    const plain = makeBooking(makeUser());
    const bookingsList = [stakeholder, member, plain];
    const base = utc("2050-01-01T00:00:00Z");
    const made: number[] = [];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            op: fc.constantFrom("insert", "insert", "refund", "move", "amount", "delete"),
            which: fc.nat(),
            hours: fc.integer({ min: -20_000, max: 20_000 }),
            minutes: fc.integer({ min: 0, max: 59 }),
            amount: fc.integer({ min: 1, max: 2_000 }),
          }),
          { maxLength: 25 },
        ),
        (steps) => {
          for (const step of steps) {
            const at = base + step.hours * 3_600_000 + step.minutes * 60_000;
            const booking = bookingsList[step.which % bookingsList.length] ?? plain;
            const target = made[step.which % Math.max(1, made.length)];
            if (step.op === "insert" || (target === undefined && step.op !== "refund")) {
              made.push(pay(booking, step.amount, at).id);
            } else if (step.op === "refund") {
              made.push(pay(booking, -step.amount, at).id);
            } else if (step.op === "move" && target !== undefined) {
              db.update(payments).set({ paymentDate: at }).where(eq(payments.id, target)).run();
            } else if (step.op === "amount" && target !== undefined) {
              db.update(payments).set({ amount: step.amount }).where(eq(payments.id, target)).run();
            } else if (step.op === "delete" && target !== undefined) {
              // The app never deletes a payment; its receipt goes first (a foreign key).
              db.delete(receipts).where(eq(receipts.paymentId, target)).run();
              db.delete(payments).where(eq(payments.id, target)).run();
              made.splice(made.indexOf(target), 1);
            }
          }
          everyLevelMatches();
          // Any period's totals equal the direct sum.
          const from = new Date(base + steps.length * 86_400_000 * -20).toISOString().slice(0, 10);
          const to = new Date(base + steps.length * 86_400_000 * 10).toISOString().slice(0, 10);
          for (const choice of [custom(from, to), custom(from, null), custom(null, to)]) {
            const range = periodRange(choice, Date.now());
            expect(salesTotals(range)).toEqual(directSum(range.start, range.end));
          }
          expect(salesTotals({ start: null, end: null })).toEqual(directSum(null, null));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("cannot lose a payment's type once set", () => {
    const payment = pay(makeBooking(makeUser()), 100, utc("2031-06-01T12:00:00Z"));
    expect(() =>
      db.update(payments).set({ customerType: null }).where(eq(payments.id, payment.id)).run(),
    ).toThrow(/cannot be cleared/);
  });
});

describe("sales totals at studio-time edges", () => {
  it("puts 23:59:59.999 in its studio day and 00:00 in the next, on DST days too", () => {
    const booking = makeBooking(makeUser());
    // 2032-03-14 is a spring-forward Sunday (23 hours); 2032-11-07 falls back (25 hours).
    const lastOfSaturday = studioInstant("2032-03-14", "00:00") - 1;
    pay(booking, 100, lastOfSaturday);
    pay(booking, 200, studioInstant("2032-03-14", "00:00"));
    pay(booking, 400, studioInstant("2032-03-15", "00:00") - 1);
    pay(booking, 800, studioInstant("2032-03-15", "00:00"));
    pay(booking, 1_600, studioInstant("2032-11-08", "00:00") - 1);
    pay(booking, 3_200, studioInstant("2032-11-08", "00:00"));

    expect(totalsOf(custom("2032-03-13", "2032-03-13")).total).toBe(100);
    expect(totalsOf(custom("2032-03-14", "2032-03-14")).total).toBe(600);
    expect(totalsOf(custom("2032-03-15", "2032-03-15")).total).toBe(800);
    expect(totalsOf(custom("2032-11-07", "2032-11-07")).total).toBe(1_600);
    expect(totalsOf(custom("2032-11-08", "2032-11-08")).total).toBe(3_200);

    // Today, seen from the last millisecond of the spring-forward day and from its midnight.
    const today = (now: number) => totalsOf({ period: "today", from: null, to: null }, now).total;
    expect(today(studioInstant("2032-03-15", "00:00") - 1)).toBe(600);
    expect(today(studioInstant("2032-03-15", "00:00"))).toBe(800);
    expect(today(lastOfSaturday)).toBe(100);
    // This Week (from Sunday 2032-03-14): Saturday's payment is last week's.
    const week = (now: number) => totalsOf({ period: "week", from: null, to: null }, now).total;
    expect(week(studioInstant("2032-03-17", "12:00"))).toBe(1_400);
    expect(week(lastOfSaturday)).toBe(100);
  });

  it("turns the month and the year at the studio's midnight, not UTC's", () => {
    const booking = makeBooking(makeUser());
    const newYear = studioInstant("2034-01-01", "00:00");
    pay(booking, 10, newYear - 1);
    pay(booking, 20, newYear);
    pay(booking, 40, studioInstant("2034-02-01", "00:00") - 1);
    pay(booking, 80, studioInstant("2034-02-01", "00:00"));
    const at = (period: "month" | "ytd" | "week", now: number) =>
      totalsOf({ period, from: null, to: null }, now).total;
    expect(at("ytd", newYear - 1)).toBe(10);
    expect(at("ytd", studioInstant("2034-02-10", "12:00"))).toBe(140);
    expect(at("month", studioInstant("2034-01-20", "12:00"))).toBe(60);
    expect(at("month", studioInstant("2034-02-01", "00:00"))).toBe(80);
    // New Year's Day 2034 is a Sunday: the week before ends with the old year.
    expect(at("week", studioInstant("2033-12-31", "23:00"))).toBe(10);
    expect(at("week", newYear)).toBe(20);
  });
});

describe("refunds and customer types", () => {
  it("nets refunds and keeps the type a payment had when it was made", () => {
    const memberUser = makeUser({ isMember: true });
    const stakeholder = makeBooking(makeUser({ isMember: true }), { stakeholder: "YES" });
    const member = makeBooking(memberUser);
    const plain = makeBooking(makeUser());
    const day = "2035-05-05";
    const at = (time: string) => studioInstant(day, time);
    pay(stakeholder, 300, at("09:00"));
    pay(member, 400, at("10:00"));
    pay(plain, 500, at("11:00"));
    // The member leaves; their refund still counts against member sales.
    db.update(users).set({ isMember: false }).where(eq(users.id, memberUser.id)).run();
    pay(member, -150, at("12:00"));
    pay(plain, -500, at("13:00"));
    expect(totalsOf(custom(day, day))).toEqual({
      total: 550,
      stakeholder: 300,
      member: 250,
      nonMember: 0,
    });
    const rows = listSales(periodRange(custom(day, day), Date.now()), 1).rows;
    expect(rows.map((row) => [row.amount, row.type])).toEqual([
      [-500, "NON_MEMBER"],
      [-150, "MEMBER"],
      [500, "NON_MEMBER"],
      [400, "MEMBER"],
      [300, "STAKEHOLDER"],
    ]);
    // A new payment after the change is classified by what is true now.
    const later = makeBooking(memberUser);
    pay(later, 100, at("14:00"));
    expect(totalsOf(custom(day, day)).nonMember).toBe(100);
  });
});

describe("the payments list", () => {
  it("is newest first, paged without counting, and says 'Unknown client' without a name", () => {
    const named = makeBooking(makeUser());
    const nameless = makeBooking(makeUser(), { firstName: " ", lastName: "" });
    const day = "2036-07-04";
    for (let i = 0; i < 30; i += 1)
      pay(i % 2 ? named : nameless, 10 + i, studioInstant(day, "09:00") + i * 60_000);
    const range = periodRange(custom(day, day), Date.now());
    const first = listSales(range, 1);
    expect(first.rows).toHaveLength(25);
    expect(first.hasNext).toBe(true);
    expect(first.rows[0]?.amount).toBe(39);
    expect(first.rows[0]?.client).toBe("Sam Seller");
    expect(first.rows[1]?.client).toBe("Unknown client");
    const second = listSales(range, 2);
    expect(second.rows.map((row) => row.amount)).toEqual([14, 13, 12, 11, 10]);
    expect(second.hasNext).toBe(false);
  });

  it("walks a period by key, each payment once, ties on the date included", () => {
    const booking = makeBooking(makeUser());
    const day = "2037-01-10";
    const same = studioInstant(day, "10:00");
    const ids = Array.from(
      { length: 7 },
      (_, i) => pay(booking, i + 1, i < 4 ? same : same + i).id,
    );
    const range = periodRange(custom(day, day), Date.now());
    const seen: number[] = [];
    let cursor = null;
    for (;;) {
      const rows = salesAfter(range, cursor, 3);
      seen.push(...rows.map((row) => row.id));
      const last = rows.at(-1);
      if (!last || rows.length < 3) break;
      cursor = { paymentDate: last.paymentDate, id: last.id };
    }
    expect(seen.sort((a, b) => a - b)).toEqual(ids);
  });
});

describe("the revenue chart", () => {
  it("has bars that add up to the period's total", () => {
    const booking = makeBooking(makeUser());
    pay(booking, 100, studioInstant("2038-03-01", "08:00"));
    pay(booking, 250, studioInstant("2038-03-20", "23:30"));
    pay(booking, -50, studioInstant("2038-04-02", "00:00"));
    const choice = custom("2038-03-01", "2038-04-30");
    const range = periodRange(choice, Date.now());
    const chart = salesChart(choice, range, Date.now());
    expect(chart?.unit).toBe("day");
    expect(chart?.bars[0]?.longLabel).toBe("March 1, 2038");
    expect(chart?.bars.at(-1)?.longLabel).toBe("April 2, 2038");
    expect(chart?.bars.reduce((sum, bar) => sum + bar.total, 0)).toBe(300);
    expect(chart?.bars.find((bar) => bar.longLabel === "March 20, 2038")?.total).toBe(250);
    expect(
      salesChart(
        custom("2099-01-01", "2099-01-31"),
        periodRange(custom("2099-01-01", "2099-01-31"), Date.now()),
        Date.now(),
      ),
    ).toBeNull();
  });
});

describe("query plans", () => {
  const plan = (query: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql: text, params } = query.toSQL();
    return (db.$client.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[])
      .map((row) => row.detail)
      .join("\n");
  };

  it("pages payments through the payment-date index and joins bookings by key", () => {
    const query = db
      .select({ id: payments.id, firstName: bookings.firstName })
      .from(payments)
      .leftJoin(bookings, eq(bookings.id, payments.bookingId))
      .where(and(gte(payments.paymentDate, 0), lt(payments.paymentDate, 1)))
      .orderBy(sql`${payments.paymentDate} DESC, ${payments.id} DESC`)
      .limit(26);
    const detail = plan(query);
    expect(detail).toMatch(/payments USING INDEX payments_date/);
    expect(detail).toMatch(/bookings USING INTEGER PRIMARY KEY/);
    expect(detail).not.toMatch(/TEMP B-TREE/);
  });

  it("reads the rollup by its primary key", () => {
    const detail = (
      db.$client
        .prepare(
          `EXPLAIN QUERY PLAN SELECT sum(r.stakeholder) FROM json_each(?) k JOIN sales_rollup r
             ON r.level = json_extract(k.value, '$[1]') AND r.bucket_start >= json_extract(k.value, '$[2]')
             AND r.bucket_start < json_extract(k.value, '$[3]') GROUP BY json_extract(k.value, '$[0]')`,
        )
        .all("[[0,0,0,3600000]]") as { detail: string }[]
    )
      .map((row) => row.detail)
      .join("\n");
    expect(detail).toMatch(
      /SEARCH r USING INDEX sqlite_autoindex_sales_rollup_1 \(level=\? AND bucket_start>\? AND bucket_start<\?\)/,
    );
  });
});
