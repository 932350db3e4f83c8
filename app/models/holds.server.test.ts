import { and, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingClaim } from "#app/domain/booking-claim";
import type { BookingStatus } from "#app/domain/booking-status";
import { holdExpired, keepsSlot } from "#app/domain/holds";
import { holdExpiredWhere, holdLiveWhere, keepsSlotWhere } from "#app/models/holds.server";
import { createBooking } from "#tests/factories/booking";
import { createUser } from "#tests/factories/user";

/** The SQL of domain/holds.ts picks the rows the domain's predicates pick. */
const NOW = Date.UTC(2030, 0, 1, 12);
const MINUTE = 60_000;

describe("the predicates in SQL", () => {
  it("pick the rows the domain's predicates pick", async () => {
    const user = await createUser(db);
    const statuses: BookingStatus[] = ["PENDING_PAYMENT", "CONFIRMED", "CANCELLED"];
    const holds = [null, NOW - MINUTE, NOW, NOW + MINUTE];
    const claims: (BookingClaim | null)[] = [null, "CHECKOUT_OPEN"];
    const rows = statuses.flatMap((status) =>
      holds.flatMap((holdExpiresAt) =>
        claims.map((claim) =>
          createBooking(db, { user, status, holdExpiresAt, claim, claimedAt: claim && NOW }),
        ),
      ),
    );
    const ids = rows.map((row) => row.id);
    const picked = (where: ReturnType<typeof holdExpiredWhere>) =>
      db
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(inArray(bookings.id, ids), where))
        .all()
        .map((row) => row.id)
        .sort((a, b) => a - b);
    const idsOf = (keep: (row: (typeof rows)[number]) => boolean) =>
      rows.filter(keep).map((row) => row.id);

    expect(picked(holdExpiredWhere(NOW))).toEqual(idsOf((row) => holdExpired(row, NOW)));
    expect(picked(keepsSlotWhere(NOW))).toEqual(idsOf((row) => keepsSlot(row, NOW)));
    expect(picked(holdLiveWhere(NOW))).toEqual(
      idsOf((row) => row.status === "PENDING_PAYMENT" && (row.holdExpiresAt ?? 0) > NOW),
    );
  });
});
