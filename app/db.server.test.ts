import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { describe, expect, it } from "vitest";
import * as schema from "#db/schema";
import { type DB, migrateChecked } from "#app/db.server";

/**
 * Migration 0011 (orders) on a database as the site left it before: every booking status, a
 * weekly series paid by one charge with a refund, coupon uses held and given back, open hosted
 * checkouts, receipts and a waitlist claim. The rows are written in SQL because the factories
 * build on today's schema, not on the one before the migration.
 */
const BEFORE_ORDERS = 11; // migrations 0000-0010

function databaseBeforeOrders(): Database.Database {
  const dir = mkdtempSync(join(tmpdir(), "studio-migration-"));
  const folder = join(dir, "migrations");
  cpSync("db/migrations", folder, { recursive: true });
  const journalPath = join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, BEFORE_ORDERS);
  writeFileSync(journalPath, JSON.stringify(journal));
  const sqlite = new Database(join(dir, "studio.db"));
  sqlite.pragma("foreign_keys = ON");
  migrate(drizzle({ client: sqlite }), { migrationsFolder: folder });
  return sqlite;
}

const HOUR = 3_600_000;
const T0 = Date.UTC(2027, 0, 5, 15);

function seedBeforeOrders(sqlite: Database.Database) {
  const run = (sql: string, ...params: unknown[]) => sqlite.prepare(sql).run(...params);
  run(
    "INSERT INTO users (id, username, password_hash, first_name, last_name, phone_number, email) VALUES (1, 'cam', 'x', 'Cam', 'Celler', '404', 'cam@example.com'), (2, 'dee', 'x', 'Dee', 'Dee', '404', 'dee@example.com')",
  );
  run(
    "INSERT INTO coupons (id, code, type, value, max_uses, current_uses) VALUES (1, 'HALF', 'PERCENTAGE', 50, 1, 1), (2, 'TEN', 'PERCENTAGE', 10, 0, 2)",
  );
  run(
    "INSERT INTO booking_series (id, user_id, repeat_every, occurrences, checkout_session_id, checkout_expires_at) VALUES (1, 1, 'week', 3, NULL, NULL)",
  );
  const booking = (values: {
    id: number;
    status: string;
    day: number;
    seriesId?: number | null;
    couponId?: number | null;
    couponCode?: string | null;
    discount?: number;
    checkoutSessionId?: string | null;
    claim?: string | null;
  }) =>
    run(
      `INSERT INTO bookings (id, user_id, first_name, last_name, phone_number, email, stakeholder,
        recording_date, recording_time, guest_count, hours_needed, starts_at, ends_at, hourly_rate,
        total_cost, original_cost, coupon_id, coupon_code, discount_amount, status, hold_expires_at,
        series_id, checkout_session_id, checkout_expires_at, claim, claimed_at)
       VALUES (?, 1, 'Cam', 'Celler', '404', 'cam@example.com', 'no', '2027-01-05', '10:00', '1', '2',
        ?, ?, 200, 400, 400, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      values.id,
      T0 + values.day * 24 * HOUR,
      T0 + values.day * 24 * HOUR + 2 * HOUR,
      values.couponId ?? null,
      values.couponCode ?? null,
      values.discount ?? 0,
      values.status,
      values.status === "PENDING_PAYMENT" ? T0 + HOUR : null,
      values.seriesId ?? null,
      values.checkoutSessionId ?? null,
      values.checkoutSessionId || values.claim ? T0 + HOUR : null,
      values.claim ?? null,
      values.claim ? T0 : null,
    );
  // Every status, booked alone.
  booking({ id: 1, status: "PENDING_PAYMENT", day: 1, checkoutSessionId: "cs_single" });
  booking({ id: 2, status: "PENDING", day: 2 });
  booking({ id: 3, status: "CONFIRMED", day: 3, couponId: 2, couponCode: "TEN", discount: 40 });
  booking({ id: 4, status: "RECORDED", day: 4 });
  booking({ id: 5, status: "POST_PRODUCTION", day: 5 });
  booking({ id: 6, status: "COMPLETED", day: 6 });
  // Cancelled before payment: its use went back. Cancelled after payment: it kept its use.
  booking({ id: 7, status: "CANCELLED", day: 7, couponId: 2, couponCode: "TEN", discount: 40 });
  booking({ id: 8, status: "CANCELLED", day: 8, couponId: 2, couponCode: "TEN", discount: 40 });
  booking({ id: 9, status: "PENDING_PAYMENT", day: 9, claim: "CHECKOUT_OPEN" });
  // A series: the first session holds the one-use code, the others carry its discount.
  booking({
    id: 10,
    status: "PENDING",
    day: 10,
    seriesId: 1,
    couponId: 1,
    couponCode: "HALF",
    discount: 200,
  });
  booking({ id: 11, status: "CANCELLED", day: 17, seriesId: 1, couponCode: "HALF", discount: 200 });
  booking({ id: 12, status: "PENDING", day: 24, seriesId: 1, couponCode: "HALF", discount: 200 });
  run(
    `INSERT INTO payments (id, booking_id, user_id, amount, payment_method, transaction_id, payment_date) VALUES
      (1, 2, 1, 400, 'card', 'pi_two', ${T0}),
      (2, 8, 1, 360, 'card', 'pi_eight', ${T0}),
      (3, 8, 1, -360, 'refund', 're_eight', ${T0}),
      (4, 10, 1, 200, 'card', 'pi_series:booking-10', ${T0}),
      (5, 11, 1, 200, 'card', 'pi_series:booking-11', ${T0}),
      (6, 12, 1, 200, 'card', 'pi_series:booking-12', ${T0}),
      (7, 11, 1, -200, 'refund', 're_eleven', ${T0})`,
  );
  for (const [id, kind, number] of [
    [1, "RECEIPT", 1],
    [2, "RECEIPT", 2],
    [3, "CREDIT_NOTE", 1],
    [4, "RECEIPT", 3],
    [5, "RECEIPT", 4],
    [6, "RECEIPT", 5],
    [7, "CREDIT_NOTE", 2],
  ] as const) {
    run(
      "INSERT INTO receipts (payment_id, kind, year, number, details) VALUES (?, ?, 2027, ?, '{}')",
      id,
      kind,
      number,
    );
  }
  run(
    `INSERT INTO waitlist_entries (user_id, recording_date, recording_time, hours_needed, starts_at, ends_at, status, booking_id)
     VALUES (2, '2027-01-06', '10:00', 2, ${T0 + 24 * HOUR}, ${T0 + 26 * HOUR}, 'CLAIMED', 2)`,
  );
}

const tables = ["payments", "receipts", "waitlist_entries", "coupons", "booking_history"];

describe("migration 0011: orders", () => {
  it("puts every booking in an order and keeps every series, payment, receipt and waitlist entry", () => {
    const sqlite = databaseBeforeOrders();
    seedBeforeOrders(sqlite);
    const before = Object.fromEntries(
      tables.map((table) => [table, sqlite.prepare(`SELECT * FROM ${table}`).all()]),
    );
    const bookingsBefore = sqlite
      .prepare("SELECT id, status, starts_at, total_cost, claim FROM bookings ORDER BY id")
      .all();

    migrateChecked(drizzle({ client: sqlite, schema }) as unknown as DB);

    for (const table of tables) {
      expect(sqlite.prepare(`SELECT * FROM ${table}`).all(), table).toEqual(before[table]);
    }
    expect(
      sqlite
        .prepare("SELECT id, status, starts_at, total_cost, claim FROM bookings ORDER BY id")
        .all(),
    ).toEqual(bookingsBefore);
    expect(sqlite.pragma("foreign_key_check")).toEqual([]);
    expect(
      sqlite.prepare("SELECT count(*) FROM bookings WHERE order_id IS NULL").pluck().get(),
    ).toBe(0);

    const orderOf = (bookingId: number) =>
      sqlite
        .prepare("SELECT o.* FROM orders o JOIN bookings b ON b.order_id = o.id WHERE b.id = ?")
        .get(bookingId) as Record<string, unknown>;
    // The series keeps its id (its public one), its shape and its held coupon use.
    const series = orderOf(10);
    expect(series).toMatchObject({ id: 1, repeat_every: "week", occurrences: 3, coupon_id: 1 });
    expect([orderOf(11).id, orderOf(12).id]).toEqual([1, 1]);
    // Every single booking is an order of its own, after the series' ids.
    const singles = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((id) => orderOf(id));
    expect(new Set(singles.map((order) => order.id)).size).toBe(9);
    for (const order of singles) {
      expect(order).toMatchObject({ repeat_every: null, occurrences: 1 });
      expect(order.id as number).toBeGreaterThan(1);
    }
    // The uses held: a live booking's and a paid cancelled one's; not the one given back.
    expect([3, 7, 8].map((id) => orderOf(id).coupon_id)).toEqual([2, null, 2]);
    // The open checkout moved to its order; a claimed plan keeps its expiry on the session.
    expect(orderOf(1)).toMatchObject({
      checkout_session_id: "cs_single",
      checkout_expires_at: T0 + HOUR,
    });
    const claimed = sqlite
      .prepare("SELECT checkout_expires_at FROM bookings WHERE id IN (1, 9) ORDER BY id")
      .pluck()
      .all();
    expect(claimed).toEqual([null, T0 + HOUR]);
    // Each series session carrying the discount names the coupon now.
    expect(
      sqlite
        .prepare("SELECT coupon_id FROM bookings WHERE id IN (10, 11, 12) ORDER BY id")
        .pluck()
        .all(),
    ).toEqual([1, 1, 1]);
    const columns = sqlite.prepare("SELECT name FROM pragma_table_info('bookings')").pluck().all();
    expect(columns).toContain("order_id");
    expect(columns).not.toContain("series_id");
    expect(columns).not.toContain("checkout_session_id");
    expect(
      sqlite.prepare("SELECT name FROM sqlite_master WHERE name = 'booking_series'").get(),
    ).toBeUndefined();
  });
});
