import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { bookingFiles } from "#db/schema";
import { db, type Tx } from "#app/db.server";

/**
 * A booking's session files (docs/product.md "Session files"): one row per whole stored file.
 * A row with `deletedAt` set is being deleted (its bytes are going, workflows/session-files):
 * nobody sees it, and the sweeper finishes it if the process stopped midway. Writes take the
 * caller's transaction.
 */
export type BookingFile = typeof bookingFiles.$inferSelect;
type Reader = Pick<typeof db, "select">;

/** What pages and the JSON API show of a file; never its storage key. */
export type BookingFileView = {
  id: number;
  bookingId: number;
  name: string;
  contentType: string;
  size: number;
  createdAt: number;
  deliveredAt: number | null;
  expiresAt: number | null;
};

const viewColumns = {
  id: bookingFiles.id,
  bookingId: bookingFiles.bookingId,
  name: bookingFiles.name,
  contentType: bookingFiles.contentType,
  size: bookingFiles.size,
  createdAt: bookingFiles.createdAt,
  deliveredAt: bookingFiles.deliveredAt,
  expiresAt: bookingFiles.expiresAt,
};

/** More files than this on one session is not a session's; the list stops there. */
export const FILES_PER_BOOKING_LIMIT = 500;

/**
 * A booking's visible files, oldest first (the order they were uploaded). `deliveredOnly` is
 * the customer's view: files staff have not delivered yet are theirs alone.
 */
export function listBookingFiles(
  reader: Reader,
  bookingId: number,
  opts: { deliveredOnly: boolean },
): BookingFileView[] {
  return reader
    .select(viewColumns)
    .from(bookingFiles)
    .where(
      and(
        eq(bookingFiles.bookingId, bookingId),
        isNull(bookingFiles.deletedAt),
        opts.deliveredOnly ? isNotNull(bookingFiles.deliveredAt) : undefined,
      ),
    )
    .orderBy(asc(bookingFiles.createdAt), asc(bookingFiles.id))
    .limit(FILES_PER_BOOKING_LIMIT)
    .all();
}

/** One visible file of a booking (the booking is part of the condition, so ids cannot be mixed). */
export function getBookingFile(bookingId: number, fileId: number): BookingFile | undefined {
  return db
    .select()
    .from(bookingFiles)
    .where(
      and(
        eq(bookingFiles.id, fileId),
        eq(bookingFiles.bookingId, bookingId),
        isNull(bookingFiles.deletedAt),
      ),
    )
    .get();
}

export function toBookingFileView(file: BookingFile): BookingFileView {
  return {
    id: file.id,
    bookingId: file.bookingId,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    createdAt: file.createdAt,
    deliveredAt: file.deliveredAt,
    expiresAt: file.expiresAt,
  };
}

export type NewBookingFile = {
  bookingId: number;
  name: string;
  contentType: string;
  size: number;
  storageKey: string;
  sha256: string | null;
  uploadedBy: number | null;
};

export function insertBookingFile(tx: Tx, file: NewBookingFile): BookingFile {
  return tx.insert(bookingFiles).values(file).returning().get();
}

/** Whether a row (visible or being deleted) already holds these bytes. */
export function storageKeyRecorded(storageKey: string): boolean {
  return (
    db
      .select({ id: bookingFiles.id })
      .from(bookingFiles)
      .where(eq(bookingFiles.storageKey, storageKey))
      .get() !== undefined
  );
}

/** Renames a visible file; false when it is gone. */
export function renameBookingFile(
  tx: Tx,
  bookingId: number,
  fileId: number,
  name: string,
): boolean {
  const result = tx
    .update(bookingFiles)
    .set({ name })
    .where(
      and(
        eq(bookingFiles.id, fileId),
        eq(bookingFiles.bookingId, bookingId),
        isNull(bookingFiles.deletedAt),
      ),
    )
    .run();
  return result.changes === 1;
}

/**
 * Claims a visible file for deletion: it disappears from every list and download at once.
 * Undefined when it is gone or another request claimed it first.
 */
export function claimFileDeletion(
  tx: Tx,
  bookingId: number,
  fileId: number,
  now: number,
): BookingFile | undefined {
  return tx
    .update(bookingFiles)
    .set({ deletedAt: now })
    .where(
      and(
        eq(bookingFiles.id, fileId),
        eq(bookingFiles.bookingId, bookingId),
        isNull(bookingFiles.deletedAt),
      ),
    )
    .returning()
    .get();
}

/** Claims every expired file (delivered, past its expiry) for deletion. */
export function claimExpiredFiles(tx: Tx, now: number, limit: number): BookingFile[] {
  const ids = tx
    .select({ id: bookingFiles.id })
    .from(bookingFiles)
    .where(
      and(
        isNull(bookingFiles.deletedAt),
        isNotNull(bookingFiles.expiresAt),
        lte(bookingFiles.expiresAt, now),
      ),
    )
    .orderBy(asc(bookingFiles.expiresAt))
    .limit(limit)
    .all()
    .map((row) => row.id);
  if (ids.length === 0) return [];
  return tx
    .update(bookingFiles)
    .set({ deletedAt: now })
    .where(and(inArray(bookingFiles.id, ids), isNull(bookingFiles.deletedAt)))
    .returning()
    .all();
}

/** Gives a claimed file back (its bytes could not be deleted): it is visible again. */
export function releaseFileDeletion(tx: Tx, fileId: number): void {
  tx.update(bookingFiles).set({ deletedAt: null }).where(eq(bookingFiles.id, fileId)).run();
}

/** The last step of a deletion, once the bytes are gone. */
export function removeBookingFile(tx: Tx, fileId: number): void {
  tx.delete(bookingFiles)
    .where(and(eq(bookingFiles.id, fileId), isNotNull(bookingFiles.deletedAt)))
    .run();
}

/** Deletions claimed before `before` and not finished: the process stopped midway. */
export function listStaleDeletions(before: number, limit: number) {
  return db
    .select()
    .from(bookingFiles)
    .where(and(isNotNull(bookingFiles.deletedAt), lte(bookingFiles.deletedAt, before)))
    .orderBy(asc(bookingFiles.deletedAt))
    .limit(limit)
    .all();
}

/** Marks every visible, undelivered file of a booking delivered; returns how many. */
export function markFilesDelivered(
  tx: Tx,
  bookingId: number,
  deliveredAt: number,
  expiresAt: number,
): BookingFileView[] {
  return tx
    .update(bookingFiles)
    .set({ deliveredAt, expiresAt })
    .where(
      and(
        eq(bookingFiles.bookingId, bookingId),
        isNull(bookingFiles.deletedAt),
        isNull(bookingFiles.deliveredAt),
      ),
    )
    .returning(viewColumns)
    .all();
}

/**
 * Delivered files whose expiry falls by `until` (and after `now`) and whose customer has not
 * been reminded: the reminder sweep's work.
 */
export function listDueExpiryReminders(now: number, until: number) {
  return db
    .select()
    .from(bookingFiles)
    .where(
      and(
        isNull(bookingFiles.deletedAt),
        isNull(bookingFiles.expiryReminderSentAt),
        gt(bookingFiles.expiresAt, now),
        lte(bookingFiles.expiresAt, until),
      ),
    )
    .orderBy(asc(bookingFiles.bookingId), asc(bookingFiles.id))
    .all();
}

/** Marks reminders sent, only for files not marked yet; returns the ids this call marked. */
export function markExpiryRemindersSent(tx: Tx, fileIds: number[], now: number): number[] {
  if (fileIds.length === 0) return [];
  return tx
    .update(bookingFiles)
    .set({ expiryReminderSentAt: now })
    .where(
      and(
        inArray(bookingFiles.id, fileIds),
        isNull(bookingFiles.expiryReminderSentAt),
        isNull(bookingFiles.deletedAt),
      ),
    )
    .returning({ id: bookingFiles.id })
    .all()
    .map((row) => row.id);
}

/** Storage keys of every row, visible or not: the sweep of unrecorded bytes keeps these. */
export function recordedStorageKeys(keys: string[]): Set<string> {
  if (keys.length === 0) return new Set();
  return new Set(
    db
      .select({ key: bookingFiles.storageKey })
      .from(bookingFiles)
      .where(inArray(bookingFiles.storageKey, keys))
      .all()
      .map((row) => row.key),
  );
}

/** How many visible files a booking has (the admin page's heading, the deliver button). */
export function countBookingFiles(bookingId: number) {
  const row = db
    .select({
      all: sql<number>`count(*)`,
      undelivered: sql<number>`sum(${bookingFiles.deliveredAt} IS NULL)`,
    })
    .from(bookingFiles)
    .where(and(eq(bookingFiles.bookingId, bookingId), isNull(bookingFiles.deletedAt)))
    .get();
  return { all: row?.all ?? 0, undelivered: row?.undelivered ?? 0 };
}
