import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { blockedTimes, bookings, services, users, waitlistEntries } from "#db/schema";
import { db } from "#app/db.server";
import { readDataVersion } from "#app/models/data-version.server";
import { createBooking } from "#tests/factories/booking";
import { createService } from "#tests/factories/catalog";
import { createUser } from "#tests/factories/user";

function bumps(write: () => unknown): boolean {
  const before = readDataVersion();
  write();
  return readDataVersion() > before;
}

describe("the data version", () => {
  it("moves with every insert, update and delete of services, bookings, blocked times and waitlist entries", async () => {
    const user = await createUser(db);
    let serviceId = 0;
    expect(bumps(() => (serviceId = createService(db, { price: 10 }).id))).toBe(true);
    expect(
      bumps(() => db.update(services).set({ price: 11 }).where(eq(services.id, serviceId)).run()),
    ).toBe(true);
    expect(bumps(() => db.delete(services).where(eq(services.id, serviceId)).run())).toBe(true);

    let bookingId = 0;
    expect(bumps(() => (bookingId = createBooking(db, { user, date: "2031-02-03" }).id))).toBe(
      true,
    );
    expect(
      bumps(() =>
        db.update(bookings).set({ status: "CANCELLED" }).where(eq(bookings.id, bookingId)).run(),
      ),
    ).toBe(true);

    const range = { startsAt: Date.UTC(2031, 1, 4, 15), endsAt: Date.UTC(2031, 1, 4, 17) };
    let blockId = 0;
    expect(
      bumps(
        () =>
          (blockId = db
            .insert(blockedTimes)
            .values({ ...range, reason: "Repairs" })
            .returning()
            .get().id),
      ),
    ).toBe(true);
    expect(bumps(() => db.delete(blockedTimes).where(eq(blockedTimes.id, blockId)).run())).toBe(
      true,
    );

    expect(
      bumps(() =>
        db
          .insert(waitlistEntries)
          .values({
            userId: user.id,
            recordingDate: "2031-02-04",
            recordingTime: "10:00",
            hoursNeeded: 2,
            ...range,
          })
          .run(),
      ),
    ).toBe(true);
    expect(
      bumps(() =>
        db
          .update(waitlistEntries)
          .set({ status: "OFFERED" })
          .where(eq(waitlistEntries.userId, user.id))
          .run(),
      ),
    ).toBe(true);
  });

  it("stays where it is on a write no visitor's page reads", async () => {
    const user = await createUser(db);
    expect(
      bumps(() =>
        db.update(users).set({ firstName: "Renamed" }).where(eq(users.id, user.id)).run(),
      ),
    ).toBe(false);
  });
});
