import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookingStatusCounts, bookings, users } from "#db/schema";
import { db } from "#app/db.server";
import { studioSession } from "#app/domain/studio-time";

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
  it("follow inserts, status changes, other updates and deletes", () => {
    const user = db
      .insert(users)
      .values({
        username: `counts_${Date.now()}`,
        passwordHash: "x",
        firstName: "Count",
        lastName: "Keeper",
        phoneNumber: "404-555-0100",
        email: "count@example.com",
      })
      .returning()
      .get();
    const insert = (day: string, status: "PENDING_PAYMENT" | "CONFIRMED") =>
      db
        .insert(bookings)
        .values({
          userId: user.id,
          firstName: "Count",
          lastName: "Keeper",
          phoneNumber: "404-555-0100",
          email: "count@example.com",
          stakeholder: "no",
          recordingDate: day,
          recordingTime: "10:00",
          guestCount: "1",
          hoursNeeded: "2",
          ...studioSession(day, "10:00", 2),
          hourlyRate: 100,
          totalCost: 200,
          originalCost: 200,
          status,
        })
        .returning()
        .get();

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
