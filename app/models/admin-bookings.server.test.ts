import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bookings } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingFilters } from "#app/domain/booking-filters";
import { studioInstant } from "#app/domain/studio-time";
import { adminBookingsQuery, listAdminBookings } from "#app/models/admin-bookings.server";
import { type BookingInput, createBooking } from "#tests/factories/booking";
import { createUser, type FactoryUser } from "#tests/factories/user";

/**
 * The staff's booking list against a real, freshly migrated SQLite file: filters, paging and
 * the query plans. (The workflow that changes statuses is tested beside it, in
 * workflows/change-booking-status.server.test.ts.)
 */
const BOOKED_AT = studioInstant("2026-12-01", "09:00");
const HOLD_MS = 30 * 60_000;
const DAY = 24 * 60 * 60_000;

let customer: FactoryUser;
let counter = 0;

beforeEach(async () => {
  counter += 1;
  customer = await createUser(db, { firstName: "Cam", lastName: "Celler" });
});

/** A unique date per test, so slots never collide across tests sharing the file. */
function day(offset = 0) {
  const base = Date.UTC(2026, 11, 10) + (counter * 3 + offset) * DAY;
  return new Date(base).toISOString().slice(0, 10);
}

/** A 2-hour session on this test's day, unpaid with its hold running, as just booked online. */
function unpaidBooking(input: Omit<BookingInput, "user"> = {}, user = customer) {
  return createBooking(db, {
    user,
    date: day(),
    time: "10:00",
    hours: 2,
    status: "PENDING_PAYMENT",
    holdExpiresAt: BOOKED_AT + HOLD_MS,
    createdAt: BOOKED_AT,
    ...input,
  });
}

describe("the admin list", () => {
  const filters = (overrides: Partial<BookingFilters>): BookingFilters => ({
    date: null,
    status: null,
    membership: "all",
    view: "list",
    page: 1,
    ...overrides,
  });

  it("filters by studio day, status and membership, a day earliest first", async () => {
    const member = await createUser(db, { isMember: true });
    const date = day();
    const late = unpaidBooking({ time: "15:00" }, member);
    const early = unpaidBooking({ time: "09:00" });
    // 23:00 on the day is still that studio day, although it is the next day in UTC.
    const night = unpaidBooking({ time: "22:00", hours: 1 });
    unpaidBooking({ date: day(1) });
    const ids = (rows: { id: number }[]) => rows.map((row) => row.id);

    expect(ids(listAdminBookings(filters({ date }), BOOKED_AT).rows)).toEqual([
      early.id,
      late.id,
      night.id,
    ]);
    expect(
      ids(listAdminBookings(filters({ date, membership: "members" }), BOOKED_AT).rows),
    ).toEqual([late.id]);
    expect(
      ids(listAdminBookings(filters({ date, membership: "non-members" }), BOOKED_AT).rows),
    ).toEqual([early.id, night.id]);
    db.update(bookings).set({ status: "PENDING" }).where(eq(bookings.id, early.id)).run();
    expect(ids(listAdminBookings(filters({ date, status: "PENDING" }), BOOKED_AT).rows)).toEqual([
      early.id,
    ]);
  });

  it("pages without counting: one extra row says whether there is more", () => {
    const page = listAdminBookings(filters({ status: "PENDING_PAYMENT" }), BOOKED_AT);
    expect(page.rows.length).toBeLessThanOrEqual(page.size);
    // Unfiltered lists put the latest start first.
    const all = listAdminBookings(filters({}), BOOKED_AT);
    const starts = all.rows.map((row) => row.startsAt);
    expect(starts).toEqual([...starts].sort((x, y) => y - x));
  });

  it("uses the indexes (no scan of the whole table, no temporary sort)", () => {
    const plan = (overrides: Partial<BookingFilters>) => {
      const query = adminBookingsQuery(filters(overrides), BOOKED_AT).toSQL();
      const rows = db.$client.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params) as {
        detail: string;
      }[];
      return rows.map((row) => row.detail).join("\n");
    };
    expect(plan({ date: "2026-12-24" })).toContain("bookings_starts_at");
    expect(plan({ status: "CONFIRMED" })).toContain("bookings_status_starts_at");
    expect(plan({ membership: "members" })).toMatch(/users.*PRIMARY KEY|INTEGER PRIMARY KEY/);
    const cases: Partial<BookingFilters>[] = [
      {},
      { date: "2026-12-24" },
      { status: "PENDING" },
      { status: "PENDING", date: "2026-12-24" },
      { status: "PENDING_PAYMENT" },
      { membership: "non-members" },
    ];
    for (const overrides of cases) {
      expect(plan(overrides)).not.toContain("TEMP B-TREE");
      expect(plan(overrides)).not.toMatch(/SCAN bookings$/m);
    }
  });
});
