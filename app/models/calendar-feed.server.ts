import { randomBytes } from "node:crypto";
import { and, asc, eq, gte } from "drizzle-orm";
import { bookings, calendarFeeds, users } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import { dataKeys, seal, sha256Hex, unseal } from "#app/secrets.server";
import { asSweptAt } from "#app/domain/holds";
import { keepsSlotWhere } from "#app/models/holds.server";
import {
  type CalendarFeedKind,
  FEED_PAST_DAYS,
  FEED_TOKEN_BYTES,
  type FeedBooking,
} from "#app/domain/calendar-feed";

/** docs/product.md "Calendar feeds": a token is kept hashed and sealed (decision 0102), so the database alone gives no working link. */
export type CalendarFeed = {
  id: number;
  userId: number;
  kind: CalendarFeedKind;
  etag: string | null;
  modifiedAt: number | null;
};

function newToken() {
  const token = randomBytes(FEED_TOKEN_BYTES).toString("base64url");
  return {
    token,
    stored: { tokenHash: sha256Hex(token), tokenSealed: seal(dataKeys, "feed-token", token) },
  };
}

const ofAccount = (userId: number, kind: CalendarFeedKind) =>
  and(eq(calendarFeeds.userId, userId), eq(calendarFeeds.kind, kind));

export function feedToken(userId: number, kind: CalendarFeedKind): string | null {
  const existing = db
    .select({ sealed: calendarFeeds.tokenSealed })
    .from(calendarFeeds)
    .where(ofAccount(userId, kind))
    .get();
  return existing ? unseal(dataKeys, "feed-token", existing.sealed) : null;
}

export function createFeedToken(tx: Tx, userId: number, kind: CalendarFeedKind): string {
  // Two first views at once: the second finds the first's row and keeps it.
  tx.insert(calendarFeeds)
    .values({ userId, kind, ...newToken().stored })
    .onConflictDoNothing({ target: [calendarFeeds.userId, calendarFeeds.kind] })
    .run();
  const row = tx
    .select({ sealed: calendarFeeds.tokenSealed })
    .from(calendarFeeds)
    .where(ofAccount(userId, kind))
    .get();
  if (!row) throw new Error("The calendar feed row was not written");
  return unseal(dataKeys, "feed-token", row.sealed);
}

export function regenerateFeedToken(tx: Tx, userId: number, kind: CalendarFeedKind): string {
  const { token, stored } = newToken();
  tx.insert(calendarFeeds)
    .values({ userId, kind, ...stored })
    .onConflictDoUpdate({
      target: [calendarFeeds.userId, calendarFeeds.kind],
      set: { ...stored, etag: null, modifiedAt: null },
    })
    .run();
  return token;
}

/** A password change or "Sign out of all devices": the links in calendars until now stop working. */
export function replaceFeedTokens(tx: Tx, userId: number): void {
  const feeds = tx
    .select({ id: calendarFeeds.id })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId))
    .all();
  for (const feed of feeds) {
    tx.update(calendarFeeds)
      .set({ ...newToken().stored, etag: null, modifiedAt: null })
      .where(eq(calendarFeeds.id, feed.id))
      .run();
  }
}

/** Whether a studio feed still works is the staff gate's to say. */
export function findFeed(token: string): (CalendarFeed & { ownerIsAdmin: boolean }) | undefined {
  return db
    .select({
      id: calendarFeeds.id,
      userId: calendarFeeds.userId,
      kind: calendarFeeds.kind,
      etag: calendarFeeds.etag,
      modifiedAt: calendarFeeds.modifiedAt,
      ownerIsAdmin: users.isAdmin,
    })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(eq(calendarFeeds.tokenHash, sha256Hex(token)))
    .get();
}

export function feedVersion(feed: CalendarFeed, contentHash: string): number | null {
  return feed.etag === contentHash && feed.modifiedAt !== null ? feed.modifiedAt : null;
}

export function recordFeedVersion(tx: Tx, feedId: number, contentHash: string, now: number) {
  tx.update(calendarFeeds)
    .set({ etag: contentHash, modifiedAt: now })
    .where(eq(calendarFeeds.id, feedId))
    .run();
  return now;
}

const feedColumns = {
  id: bookings.id,
  status: bookings.status,
  startsAt: bookings.startsAt,
  endsAt: bookings.endsAt,
  hoursNeeded: bookings.hoursNeeded,
  guestCount: bookings.guestCount,
  firstName: bookings.firstName,
  holdExpiresAt: bookings.holdExpiresAt,
};

/** The customer's own sessions from a year back, cancelled ones included: an expired hold as swept. */
export function customerFeedBookings(userId: number, now: number): FeedBooking[] {
  return db
    .select({
      ...feedColumns,
      claim: bookings.claim,
      cancellationReason: bookings.cancellationReason,
      cancelledAt: bookings.cancelledAt,
    })
    .from(bookings)
    .where(
      and(eq(bookings.userId, userId), gte(bookings.endsAt, now - FEED_PAST_DAYS * 86_400_000)),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .all()
    .map((row) => asSweptAt(row, now));
}

export function studioFeedBookings(now: number): FeedBooking[] {
  return db
    .select(feedColumns)
    .from(bookings)
    .where(and(gte(bookings.endsAt, now - FEED_PAST_DAYS * 86_400_000), keepsSlotWhere(now)))
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .all();
}
