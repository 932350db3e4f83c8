import { and, asc, count, eq, gt, inArray, lt, lte, or } from "drizzle-orm";
import { waitlistEntries } from "#db/schema";
import { db } from "#app/db.server";
import { OPEN_WAITLIST_STATUSES } from "#app/domain/waitlist-status";
import type { Tx } from "#app/models/booking.server";

/**
 * Waitlist entries (docs/product.md "Waitlist"). Writes take the caller's transaction: the
 * workflow (workflows/waitlist.server.ts) reads the calendar and writes in one IMMEDIATE
 * transaction. Whether an offer keeps its range from others is read with the busy ranges
 * (models/booking.server.ts `readBusyRanges`).
 */
export type WaitlistEntry = typeof waitlistEntries.$inferSelect;
type Reader = Pick<typeof db, "select">;

/** More than this is not one customer's list (MAX_WAITLIST is far lower). */
const OWN_ENTRIES_LIMIT = 100;

const open = inArray(waitlistEntries.status, [...OPEN_WAITLIST_STATUSES]);

export function insertWaitlistEntry(tx: Tx, values: typeof waitlistEntries.$inferInsert) {
  return tx.insert(waitlistEntries).values(values).returning().get();
}

/** The customer's open entries (waiting or offered): what MAX_WAITLIST counts. */
export function openEntriesOf(reader: Reader, userId: number): WaitlistEntry[] {
  return reader
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.userId, userId), open))
    .orderBy(asc(waitlistEntries.startsAt), asc(waitlistEntries.id))
    .limit(OWN_ENTRIES_LIMIT)
    .all();
}

/** Every entry of the customer's (GET /api/waitlist), soonest range first. */
export function listOwnEntries(userId: number): WaitlistEntry[] {
  return db
    .select()
    .from(waitlistEntries)
    .where(eq(waitlistEntries.userId, userId))
    .orderBy(asc(waitlistEntries.startsAt), asc(waitlistEntries.id))
    .limit(OWN_ENTRIES_LIMIT)
    .all();
}

/** A customer's own entry; another customer's is reported as missing, not forbidden. */
export function getOwnEntry(id: number, userId: number) {
  return db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.userId, userId)))
    .get();
}

/** Takes an open entry off the list; undefined when it was not open (or not there). */
export function markRemoved(tx: Tx, id: number, userId: number, now: number) {
  return tx
    .update(waitlistEntries)
    .set({ status: "REMOVED", endedAt: now })
    .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.userId, userId), open))
    .returning()
    .get();
}

/**
 * Ends what can no longer be offered or claimed: offers past their expiry (their range passes
 * on) and open entries whose start is before `earliestStart` (inside 48 hours, or past).
 */
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

/** Whether any entry is waiting or offered: without one there is nothing to offer or lapse. */
export function hasOpenEntries(): boolean {
  return anyOpen.get() !== undefined;
}

/** Waiting entries in the order they joined: the earliest gets a freed range first. */
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

/** The customer's offer, while it lasts: what a claim may book. */
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

/**
 * How many offers of the customer's still hold their range: each counts towards
 * MAX_UNPAID_SESSIONS as an unpaid session does. Read in the caller's transaction.
 */
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

/** The offer became a booking: CLAIMED, with its booking, in the booking's transaction. */
export function markClaimed(tx: Tx, id: number, bookingId: number, now: number): boolean {
  return (
    tx
      .update(waitlistEntries)
      .set({ status: "CLAIMED", bookingId, endedAt: now })
      .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.status, "OFFERED")))
      .run().changes === 1
  );
}

/** Where an offer is claimed: the booking form, prefilled (docs/product.md "Waitlist"). */
export function claimPath(entryId: number): string {
  return `/?claim=${entryId}#booking-form`;
}
