import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { DatabaseBusyError, writeTransaction, db } from "#app/db.server";
import { Refusal } from "#app/domain/refusal";
import {
  canUploadFiles,
  fileExpiresAt,
  fileNameProblem,
  fileSizeProblem,
  fitsInFreeSpace,
  isAllowedContentType,
  megabytes,
  noSpaceForFormMessage,
  noSpaceMessage,
  resolveContentType,
  SESSION_FILE_MESSAGES,
  sessionFileNameSchema,
  uploadedFileName,
  uploadKey,
  EXPIRY_REMINDER_LEAD_MS,
} from "#app/domain/session-files";
import { filesExpiringEmail, filesReadyEmail } from "#app/emails/templates.server";
import { env } from "#app/env.server";
import { logError, logEvent } from "#app/log.server";
import {
  type BookingFile,
  type BookingFileView,
  claimExpiredFiles,
  claimFileDeletion,
  insertBookingFile,
  listBookingFiles,
  listDueExpiryReminders,
  listStaleDeletions,
  markExpiryRemindersSent,
  markFilesDelivered,
  releaseFileDeletion,
  removeBookingFile,
  renameBookingFile,
  toBookingFileView,
} from "#app/models/booking-file.server";
import { getBooking } from "#app/models/booking.server";
import { enqueueEmail } from "#app/models/outbox.server";
import {
  deleteReservation,
  insertReservation,
  liveReservedBytes,
} from "#app/models/upload-reservation.server";
import { accountEmail } from "#app/models/user.server";
import { UPLOAD_EXPIRY_MS } from "#app/integrations/file-storage.server";
import { fileStorage } from "#app/adapters.server";

/**
 * docs/product.md "Session files": a deletion claims the row, deletes the bytes outside any
 * transaction, then removes the row; the sweeper finishes one a crash left halfway.
 */

const fileGone = () => new Refusal("file-gone", SESSION_FILE_MESSAGES.fileNotFound);

export function renameSessionFile(i: {
  bookingId: number;
  fileId: number;
  name: string;
  actorId: number;
}): void {
  const parsed = sessionFileNameSchema.safeParse(i.name);
  if (!parsed.success) {
    throw new Refusal(
      "file-name-refused",
      parsed.error.issues[0]?.message ?? SESSION_FILE_MESSAGES.nameRequired,
    );
  }
  const renamed = writeTransaction((tx) =>
    renameBookingFile(tx, i.bookingId, i.fileId, parsed.data),
  );
  if (!renamed) throw fileGone();
  logEvent("session file renamed", {
    bookingId: i.bookingId,
    fileId: i.fileId,
    actorId: i.actorId,
  });
}

/** `ok: false` when storage failed: the file is given back and shows again. */
export async function deleteSessionFile(i: {
  bookingId: number;
  fileId: number;
  actorId: number;
}): Promise<{ ok: true } | { ok: false; message: string }> {
  const now = Date.now();
  const claimed = writeTransaction((tx) => claimFileDeletion(tx, i.bookingId, i.fileId, now));
  if (!claimed) throw fileGone();
  const deleted = await finishDeletion(claimed, { releaseOnFailure: true });
  if (!deleted) return { ok: false, message: SESSION_FILE_MESSAGES.storageUnavailable };
  logEvent("session file deleted", {
    bookingId: i.bookingId,
    fileId: i.fileId,
    actorId: i.actorId,
  });
  return { ok: true };
}

/**
 * Deletes a claimed file's bytes, then its row. When storage fails, a staff deletion gives the
 * file back (it shows again, staff are told); the sweeper leaves its claim for the next sweep.
 */
async function finishDeletion(
  file: BookingFile,
  { releaseOnFailure }: { releaseOnFailure: boolean },
): Promise<boolean> {
  try {
    await fileStorage().remove(file.storageKey);
  } catch (error) {
    logError("session-file-delete", error);
    if (releaseOnFailure) writeTransaction((tx) => releaseFileDeletion(tx, file.id));
    return false;
  }
  writeTransaction((tx) => removeBookingFile(tx, file.id));
  return true;
}

/** Any status: a booking cancelled after its session keeps its files. Answers how many. */
export function deliverSessionFiles(i: { bookingId: number; actorId: number }): number {
  const now = Date.now();
  const expiresAt = fileExpiresAt(now, env.FILES_RETENTION_DAYS);
  return writeTransaction((tx) => {
    const booking = getBooking(tx, i.bookingId);
    if (!booking) throw new Refusal("not-found", SESSION_FILE_MESSAGES.bookingNotFound);
    const delivered = markFilesDelivered(tx, booking.id, now, expiresAt);
    if (delivered.length === 0) {
      throw new Refusal("nothing-to-deliver", SESSION_FILE_MESSAGES.nothingToDeliver);
    }
    enqueueEmail(tx, {
      kind: "files-ready",
      to: accountEmail(tx, booking.userId),
      bookingId: booking.id,
      ...filesReadyEmail({
        booking,
        files: listBookingFiles(tx, booking.id, { deliveredOnly: true }),
        sessionUrl: `${env.APP_URL}/dashboard/sessions/${booking.id}`,
      }),
    });
    logEvent("session files delivered", {
      bookingId: booking.id,
      count: delivered.length,
      actorId: i.actorId,
    });
    return delivered.length;
  });
}

export function uploadLimits() {
  return {
    tusBytes: Math.floor(env.MAX_FILE_GB * 1024 ** 3),
    formBytes: megabytes(env.MAX_FORM_UPLOAD_MB),
  };
}

export type UploadCheck =
  | { ok: true; name: string; contentType: string }
  | { ok: false; status: 400 | 404 | 413 | 415 | 422 | 507; message: string };

/** Nothing is stored until this says yes; a size not known yet is checked as the limit. */
export async function checkNewUpload(i: {
  bookingId: number;
  name: string;
  contentType: string;
  size: number | null;
  limitBytes: number;
  /** The upload's own promise of space, kept until `releaseFreeSpace` or `expiresAt`. */
  reservation?: { id: string; expiresAt: number } | undefined;
}): Promise<UploadCheck> {
  const booking = getBooking(db, i.bookingId);
  if (!booking) return { ok: false, status: 404, message: SESSION_FILE_MESSAGES.bookingNotFound };
  if (!canUploadFiles(booking.status)) {
    return { ok: false, status: 422, message: SESSION_FILE_MESSAGES.notRecorded };
  }
  const name = uploadedFileName(i.name);
  const nameProblem = fileNameProblem(name);
  if (nameProblem) return { ok: false, status: 400, message: nameProblem };
  const contentType = resolveContentType(i.contentType, name);
  if (!isAllowedContentType(contentType)) {
    return { ok: false, status: 415, message: SESSION_FILE_MESSAGES.contentType };
  }
  if (i.size !== null) {
    const sizeProblem = fileSizeProblem(i.size, i.limitBytes);
    if (sizeProblem) return { ok: false, status: i.size === 0 ? 400 : 413, message: sizeProblem };
  }
  const needed = i.size ?? i.limitBytes;
  if (!(await reserveFreeSpace(i.reservation, needed))) {
    const message = i.size === null ? noSpaceForFormMessage(needed) : noSpaceMessage(needed);
    return { ok: false, status: 507, message };
  }
  return { ok: true, name, contentType };
}

/**
 * The sum of promises and the new one are one transaction, so of two uploads that fit alone but
 * not together only one passes. Storage that reports no free space (a bucket) promises nothing.
 */
async function reserveFreeSpace(
  reservation: { id: string; expiresAt: number } | undefined,
  bytes: number,
): Promise<boolean> {
  const free = await fileStorage().freeBytes();
  if (free === null) return true;
  const reserveBytes = megabytes(env.FILES_RESERVE_MB);
  const now = Date.now();
  return writeTransaction((tx) => {
    const promised = liveReservedBytes(tx, now);
    if (!fitsInFreeSpace(promised + bytes, free, reserveBytes)) return false;
    if (reservation) insertReservation(tx, { ...reservation, bytes });
    return true;
  });
}

/** A form's file arrives in its one request: a promise older than this was cut off by a crash. */
const FORM_RESERVATION_MS = 60 * 60_000;

/**
 * The promise of space an upload under `key` makes: a resumable (tus) one may be resumed until
 * the abandoned-upload sweep deletes it, a form's lasts its request.
 */
export function uploadReservation(key: string, kind: "tus" | "form") {
  const lasts = kind === "tus" ? UPLOAD_EXPIRY_MS : FORM_RESERVATION_MS;
  return { id: key, expiresAt: Date.now() + lasts };
}

export function releaseFreeSpace(reservationId: string): void {
  writeTransaction((tx) => deleteReservation(tx, reservationId));
}

export function newUploadKey(bookingId: number): string {
  return uploadKey(bookingId, randomBytes(16).toString("hex"));
}

/** The booking is checked again here: if it no longer takes files, the bytes are deleted. */
export async function recordUploadedFile(i: {
  bookingId: number;
  key: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string | null;
  actorId: number | null;
}): Promise<{ ok: true; file: BookingFileView } | { ok: false; message: string }> {
  const result = writeTransaction((tx) => {
    const booking = getBooking(tx, i.bookingId);
    if (!booking) return { ok: false as const, message: SESSION_FILE_MESSAGES.bookingNotFound };
    if (!canUploadFiles(booking.status)) {
      return { ok: false as const, message: SESSION_FILE_MESSAGES.notRecorded };
    }
    const file = insertBookingFile(tx, {
      bookingId: i.bookingId,
      name: i.name,
      contentType: i.contentType,
      size: i.size,
      storageKey: i.key,
      sha256: i.sha256,
      uploadedBy: i.actorId,
    });
    return { ok: true as const, file: toBookingFileView(file) };
  });
  if (!result.ok) await discardUpload(i.key);
  else
    logEvent("session file uploaded", {
      bookingId: i.bookingId,
      fileId: result.file.id,
      size: i.size,
    });
  return result;
}

/** Deletes bytes that will never be recorded; a failure is left to the abandoned-upload sweep. */
export async function discardUpload(key: string): Promise<void> {
  await fileStorage()
    .remove(key)
    .catch((error: unknown) => logError("session-file-discard", error));
}

/** On any failure the partial file is gone before this throws. */
export function saveUploadStream(key: string, source: Readable, contentType: string) {
  return fileStorage().saveStream(key, source, contentType);
}

/** A deletion claimed this long ago and not finished was cut off by a crash or a storage failure. */
const STALE_DELETION_MS = 10 * 60_000;
const SWEEP_BATCH = 100;

/** The reminder goes a week before expiry, once per file, one e-mail per booking. */
export async function sweepSessionFiles(now: number): Promise<void> {
  queueExpiryReminders(now);
  const expired = writeTransaction((tx) => claimExpiredFiles(tx, now, SWEEP_BATCH));
  for (const file of expired) await finishDeletion(file, { releaseOnFailure: false });
  for (const file of listStaleDeletions(now - STALE_DELETION_MS, SWEEP_BATCH)) {
    await finishDeletion(file, { releaseOnFailure: false });
  }
  const abandoned = await fileStorage().sweepAbandonedUploads();
  if (expired.length > 0 || abandoned > 0) {
    logEvent("session files swept", { expired: expired.length, abandonedUploads: abandoned });
  }
}

export function queueExpiryReminders(now: number): number {
  const due = listDueExpiryReminders(now, now + EXPIRY_REMINDER_LEAD_MS);
  if (due.length === 0) return 0;
  const byBooking = new Map<number, BookingFile[]>();
  for (const file of due)
    byBooking.set(file.bookingId, [...(byBooking.get(file.bookingId) ?? []), file]);
  let queued = 0;
  for (const [bookingId, files] of byBooking) {
    try {
      writeTransaction((tx) => {
        const marked = new Set(
          markExpiryRemindersSent(
            tx,
            files.map((file) => file.id),
            now,
          ),
        );
        const booking = getBooking(tx, bookingId);
        if (marked.size === 0 || !booking) return;
        const expiring = files.filter((file) => marked.has(file.id)).map(toBookingFileView);
        enqueueEmail(tx, {
          kind: "files-expiring",
          to: accountEmail(tx, booking.userId),
          bookingId,
          ...filesExpiringEmail({
            booking,
            files: expiring,
            sessionUrl: `${env.APP_URL}/dashboard/sessions/${bookingId}`,
          }),
        });
        queued++;
      });
    } catch (error) {
      if (!(error instanceof DatabaseBusyError)) throw error;
    }
  }
  return queued;
}
