import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { bookingFiles } from "#db/schema";
import { db, type Tx } from "#app/db.server";

/** docs/product.md "Session files": a row with `deletedAt` set is being deleted; nobody sees it and the sweeper finishes it. */
export type BookingFile = typeof bookingFiles.$inferSelect;
type Reader = Pick<typeof db, "select">;

/** Never its storage key. */
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

export const FILES_PER_BOOKING_LIMIT = 500;

/** `deliveredOnly` is the customer's view: undelivered files are staff's alone. */
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

/** The booking is part of the condition, so ids cannot be mixed. */
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

export function storageKeyRecorded(storageKey: string): boolean {
  return (
    db
      .select({ id: bookingFiles.id })
      .from(bookingFiles)
      .where(eq(bookingFiles.storageKey, storageKey))
      .get() !== undefined
  );
}

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

/** It disappears from every list and download at once. Undefined when another request claimed it first. */
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

export function releaseFileDeletion(tx: Tx, fileId: number): void {
  tx.update(bookingFiles).set({ deletedAt: null }).where(eq(bookingFiles.id, fileId)).run();
}

export function removeBookingFile(tx: Tx, fileId: number): void {
  tx.delete(bookingFiles)
    .where(and(eq(bookingFiles.id, fileId), isNotNull(bookingFiles.deletedAt)))
    .run();
}

export function listStaleDeletions(before: number, limit: number) {
  return db
    .select()
    .from(bookingFiles)
    .where(and(isNotNull(bookingFiles.deletedAt), lte(bookingFiles.deletedAt, before)))
    .orderBy(asc(bookingFiles.deletedAt))
    .limit(limit)
    .all();
}

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
