import { and, asc, count, eq, gt, inArray, lt, lte, or, sql } from "drizzle-orm";
import { waitlistEntries } from "#db/schema";
import { db } from "#app/db.server";
import { OPEN_WAITLIST_STATUSES } from "#app/domain/waitlist-status";
import type { Tx } from "#app/models/booking.server";

/** docs/product.md "Waitlist". Writes take the caller's transaction; offers' ranges are read with `readBusyRanges`. */
export type WaitlistEntry = typeof waitlistEntries.$inferSelect;

const OWN_ENTRIES_LIMIT = 100;

const open = inArray(waitlistEntries.status, [...OPEN_WAITLIST_STATUSES]);

export function insertWaitlistEntry(tx: Tx, values: typeof waitlistEntries.$inferInsert) {
  return tx.insert(waitlistEntries).values(values).returning().get();
}

const openEntries = db
  .select()
  .from(waitlistEntries)
  .where(and(eq(waitlistEntries.userId, sql.placeholder("userId")), open))
  .orderBy(asc(waitlistEntries.startsAt), asc(waitlistEntries.id))
  .limit(OWN_ENTRIES_LIMIT)
  .prepare();

export function openEntriesOf(userId: number): WaitlistEntry[] {
  return openEntries.all({ userId });
}

export function listOwnEntries(userId: number): WaitlistEntry[] {
  return db
    .select()
    .from(waitlistEntries)
    .where(eq(waitlistEntries.userId, userId))
    .orderBy(asc(waitlistEntries.startsAt), asc(waitlistEntries.id))
    .limit(OWN_ENTRIES_LIMIT)
    .all();
}

/** Another customer's entry is reported as missing, not forbidden. */
export function getOwnEntry(id: number, userId: number) {
  return db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.userId, userId)))
    .get();
}

export function markRemoved(tx: Tx, id: number, userId: number, now: number) {
  return tx
    .update(waitlistEntries)
    .set({ status: "REMOVED", endedAt: now })
    .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.userId, userId), open))
    .returning()
    .get();
}

export function lapseDueEntries(tx: Tx, now: number, earliestStart: number): number {
  return tx
    .update(waitlistEntries)
    .set({ status: "LAPSED", endedAt: now })
    .where(
      or(
        and(eq(waitlistEntries.status, "OFFERED"), lte(waitlistEntries.offerExpiresAt, now)),
        and(open, lt(waitlistEntries.startsAt, earliestStart)),
      ),
    )
    .run().changes;
}

// The background loop asks every minute; almost always there is nothing open.
const anyOpen = db
  .select({ id: waitlistEntries.id })
  .from(waitlistEntries)
  .where(inArray(waitlistEntries.status, [...OPEN_WAITLIST_STATUSES]))
  .limit(1)
  .prepare();

export function hasOpenEntries(): boolean {
  return anyOpen.get() !== undefined;
}

export function waitingEntries(tx: Tx): WaitlistEntry[] {
  return tx
    .select()
    .from(waitlistEntries)
    .where(eq(waitlistEntries.status, "WAITING"))
    .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
    .all();
}

export function markOffered(tx: Tx, id: number, now: number, expiresAt: number) {
  return tx
    .update(waitlistEntries)
    .set({ status: "OFFERED", offeredAt: now, offerExpiresAt: expiresAt })
    .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.status, "WAITING")))
    .returning()
    .get();
}

export function liveOfferOf(tx: Tx, id: number, userId: number, now: number) {
  return tx
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.id, id),
        eq(waitlistEntries.userId, userId),
        eq(waitlistEntries.status, "OFFERED"),
        gt(waitlistEntries.offerExpiresAt, now),
      ),
    )
    .get();
}

/** Each counts towards MAX_UNPAID_SESSIONS as an unpaid session does. */
export function countLiveOffers(tx: Tx, userId: number, now: number): number {
  const row = tx
    .select({ n: count() })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.userId, userId),
        eq(waitlistEntries.status, "OFFERED"),
        gt(waitlistEntries.offerExpiresAt, now),
      ),
    )
    .get();
  return row?.n ?? 0;
}

export function markClaimed(tx: Tx, id: number, bookingId: number, now: number): boolean {
  return (
    tx
      .update(waitlistEntries)
      .set({ status: "CLAIMED", bookingId, endedAt: now })
      .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.status, "OFFERED")))
      .run().changes === 1
  );
}

/** docs/product.md "Waitlist": the booking form, prefilled. */
export function claimPath(entryId: number): string {
  return `/?claim=${entryId}#booking-form`;
}
