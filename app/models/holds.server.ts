import { and, eq, gt, isNull, lte, ne, not, or, type Placeholder, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { bookings } from "#db/schema";

/** domain/holds.ts in SQL, for the reads that filter or count in the database. */
export type At = number | Placeholder;

/** The bookings table under another name, for a subquery over other bookings of the row's. */
export function bookingsAs(name: string): typeof bookings {
  return alias(bookings, name) as unknown as typeof bookings;
}

/** domain/holds.ts `holdExpired`. */
export function holdExpiredWhere(now: At, table: typeof bookings = bookings): SQL {
  return and(
    eq(table.status, "PENDING_PAYMENT"),
    or(isNull(table.holdExpiresAt), lte(table.holdExpiresAt, now)),
    isNull(table.claim),
  ) as SQL;
}

/** Unpaid with its hold's time still running, claimed or not: what the unpaid limits count. */
export function holdLiveWhere(now: number): SQL {
  return and(eq(bookings.status, "PENDING_PAYMENT"), gt(bookings.holdExpiresAt, now)) as SQL;
}

/** domain/holds.ts `keepsSlot`. */
export function keepsSlotWhere(now: At, table: typeof bookings = bookings): SQL {
  return and(ne(table.status, "CANCELLED"), not(holdExpiredWhere(now, table))) as SQL;
}
