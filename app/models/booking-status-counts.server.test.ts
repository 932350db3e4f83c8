import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookingStatusCounts, bookings } from "#db/schema";
import { db } from "#app/db.server";
import { createBooking } from "#tests/factories/booking";
import { createUser } from "#tests/factories/user";

/**
 * booking_status_counts is kept by triggers (migration 0003): after any mix of inserts,
 * status changes, other updates and deletes it equals counting the bookings table.
 */
function countedByTable() {
  return Object.fromEntries(
    db
      .select({ status: bookings.status, total: sql<number>`count(*)` })
      .from(bookings)
      .groupBy(bookings.status)
      .all()
      .map((row) => [row.status, row.total]),
  );
}

function keptByTriggers() {
  return Object.fromEntries(
    db
      .select()
      .from(bookingStatusCounts)
      .all()
      .filter((row) => row.total !== 0)
      .map((row) => [row.status, row.total]),
  );
}

describe("booking status counts", () => {
  it("follow inserts, status changes, other updates and deletes", async () => {
    const user = await createUser(db);
    const insert = (date: string, status: "PENDING_PAYMENT" | "CONFIRMED") =>
      createBooking(db, { user, date, status });

    const first = insert("2031-01-06", "PENDING_PAYMENT");
    const second = insert("2031-01-07", "CONFIRMED");
    insert("2031-01-08", "CONFIRMED");
    expect(keptByTriggers()).toEqual(countedByTable());

    db.update(bookings).set({ status: "CANCELLED" }).where(eq(bookings.id, first.id)).run();
    db.update(bookings).set({ totalCost: 0 }).where(eq(bookings.id, second.id)).run();
    db.update(bookings).set({ status: "CONFIRMED" }).where(eq(bookings.id, second.id)).run();
    expect(keptByTriggers()).toEqual(countedByTable());

    db.delete(bookings).where(eq(bookings.id, second.id)).run();
    expect(keptByTriggers()).toEqual(countedByTable());
  });
});
