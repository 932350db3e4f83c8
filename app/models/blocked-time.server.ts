import { and, asc, desc, eq, gt, lt, lte } from "drizzle-orm";
import { blockedTimes, bookings } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import { BOOKING_LIMITS } from "#app/domain/availability";
import type { BlockedTimeInput, BlockList } from "#app/domain/blocked-times";
import { keepsSlotWhere } from "#app/models/holds.server";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";

/** docs/product.md "Blocked times": read through `readBusyRanges` with no cache, so a block counts from its commit. */
const LONGEST_SESSION_MS = BOOKING_LIMITS.maxHours * 60 * 60_000;

export type OverlappingSession = {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  startsAt: number;
  endsAt: number;
  status: (typeof bookings.$inferSelect)["status"];
};

/** The sessions of [startsAt, endsAt) that still hold their slot (the same rule as availability). */
function overlappingSessions(
  reader: Pick<Tx, "select">,
  range: { startsAt: number; endsAt: number },
  now: number,
) {
  return reader
    .select({
      id: bookings.id,
      firstName: bookings.firstName,
      lastName: bookings.lastName,
      email: bookings.email,
      phoneNumber: bookings.phoneNumber,
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
      status: bookings.status,
    })
    .from(bookings)
    .where(
      and(
        lt(bookings.startsAt, range.endsAt),
        gt(bookings.endsAt, range.startsAt),
        // Bounds the starts_at index range: no session is longer than maxHours.
        gt(bookings.startsAt, range.startsAt - LONGEST_SESSION_MS),
        keepsSlotWhere(now),
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .all() satisfies OverlappingSession[];
}

/** Overlapping live sessions do not stop it: they are returned so staff can contact those customers. */
export function createBlockedTime(tx: Tx, input: BlockedTimeInput, createdBy: number, now: number) {
  const block = tx
    .insert(blockedTimes)
    .values({
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      reason: input.reason,
      createdBy,
      createdAt: now,
    })
    .returning()
    .get();
  return { block, overlapping: overlappingSessions(tx, block, now) };
}

export function removeBlockedTime(tx: Tx, id: number): boolean {
  return tx.delete(blockedTimes).where(eq(blockedTimes.id, id)).run().changes === 1;
}

export type BlockedTimeRow = typeof blockedTimes.$inferSelect & {
  overlapping: OverlappingSession[];
};

export function listBlockedTimesPage(list: BlockList, page: number, now: number) {
  const { limit, offset } = pageWindow(page);
  const rows = db
    .select()
    .from(blockedTimes)
    .where(list === "upcoming" ? gt(blockedTimes.endsAt, now) : lte(blockedTimes.endsAt, now))
    .orderBy(
      ...(list === "upcoming"
        ? [asc(blockedTimes.startsAt), asc(blockedTimes.id)]
        : [desc(blockedTimes.startsAt), desc(blockedTimes.id)]),
    )
    .limit(limit)
    .offset(offset)
    .all();
  const shown: Page<typeof blockedTimes.$inferSelect> = toPage(rows, page);
  return {
    ...shown,
    rows: shown.rows.map(
      (block): BlockedTimeRow => ({
        ...block,
        // Past blocks are history: what they overlapped then is not a call to make now.
        overlapping: list === "upcoming" ? overlappingSessions(db, block, now) : [],
      }),
    ),
  };
}
