import { randomBytes } from "node:crypto";
import { and, asc, eq, gte, ne, or, gt } from "drizzle-orm";
import { bookings, calendarFeeds, users } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import {
  type CalendarFeedKind,
  FEED_PAST_DAYS,
  FEED_TOKEN_BYTES,
  type FeedBooking,
} from "#app/domain/calendar-feed";

/**
 * Calendar feeds' storage (docs/product.md "Calendar feeds"): one token per account and kind,
 * kept as given so the dashboard shows it again (decision 0102), and each feed's current
 * content version (`etag`) with the instant it was first served (`modifiedAt`).
 */
export type CalendarFeed = {
  id: number;
  userId: number;
  kind: CalendarFeedKind;
  etag: string | null;
  modifiedAt: number | null;
};

function newToken(): string {
  return randomBytes(FEED_TOKEN_BYTES).toString("base64url");
}

/**
 * The account's token for this kind of feed, made on the first call when `create` (a page's
 * GET); null when there is none yet and it may not be made (a form post's re-rendered page).
 */
export function feedToken(userId: number, kind: CalendarFeedKind, create: boolean): string | null {
  const existing = db
    .select({ token: calendarFeeds.token })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.userId, userId), eq(calendarFeeds.kind, kind)))
    .get();
  if (existing) return existing.token;
  if (!create) return null;
  return writeTransaction((tx) => {
    // Two first views at once: the second finds the first's row and keeps it.
    tx.insert(calendarFeeds)
      .values({ userId, kind, token: newToken() })
      .onConflictDoNothing({ target: [calendarFeeds.userId, calendarFeeds.kind] })
      .run();
    const row = tx
      .select({ token: calendarFeeds.token })
      .from(calendarFeeds)
      .where(and(eq(calendarFeeds.userId, userId), eq(calendarFeeds.kind, kind)))
      .get();
    if (!row) throw new Error("The calendar feed row was not written");
    return row.token;
  });
}

/** A new token for the account's feed; the old one stops working with this write. */
export function regenerateFeedToken(userId: number, kind: CalendarFeedKind): string {
  const token = newToken();
  writeTransaction((tx) => {
    tx.insert(calendarFeeds)
      .values({ userId, kind, token })
      .onConflictDoUpdate({
        target: [calendarFeeds.userId, calendarFeeds.kind],
        set: { token, etag: null, modifiedAt: null },
      })
      .run();
  });
  return token;
}

/**
 * The feed behind a token, or undefined, with whether its owner is an admin: whether a studio
 * feed still works is the staff gate's to say (web/staff-gate.server.ts).
 */
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
    .where(eq(calendarFeeds.token, token))
    .get();
}

/**
 * The version of a feed's content: when its content hash differs from the stored one, the new
 * hash is stored with `now` as the moment it changed. Returns that moment.
 */
export function feedVersion(feed: CalendarFeed, contentHash: string, now: number): number {
  if (feed.etag === contentHash && feed.modifiedAt !== null) return feed.modifiedAt;
  writeTransaction((tx) => {
    tx.update(calendarFeeds)
      .set({ etag: contentHash, modifiedAt: now })
      .where(eq(calendarFeeds.id, feed.id))
      .run();
  });
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
  lastName: bookings.lastName,
  businessName: bookings.businessName,
  phoneNumber: bookings.phoneNumber,
  holdExpiresAt: bookings.holdExpiresAt,
};

/** An unpaid booking whose hold has passed has let its slot go: no feed lists it. */
const holdsOrPaid = (now: number) =>
  or(ne(bookings.status, "PENDING_PAYMENT"), gt(bookings.holdExpiresAt, now));

/** The customer's own sessions from a year back, cancelled ones included (marked so). */
export function customerFeedBookings(userId: number, now: number): FeedBooking[] {
  return db
    .select(feedColumns)
    .from(bookings)
    .where(
      and(
        eq(bookings.userId, userId),
        gte(bookings.endsAt, now - FEED_PAST_DAYS * 86_400_000),
        holdsOrPaid(now),
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .all();
}

/** Every live session of the studio (not cancelled, holding its slot) from a year back. */
export function studioFeedBookings(now: number): FeedBooking[] {
  return db
    .select(feedColumns)
    .from(bookings)
    .where(
      and(
        ne(bookings.status, "CANCELLED"),
        gte(bookings.endsAt, now - FEED_PAST_DAYS * 86_400_000),
        holdsOrPaid(now),
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .all();
}
