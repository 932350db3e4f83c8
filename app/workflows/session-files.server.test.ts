import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bookingFiles } from "#db/schema";
import { db } from "#app/db.server";
import type { RefusalKind } from "#app/domain/refusal";
import {
  EXPIRY_REMINDER_LEAD_MS,
  FILE_NAME_MAX,
  SESSION_FILE_MESSAGES,
} from "#app/domain/session-files";
import type { PublicUser } from "#app/domain/user";
import { env } from "#app/env.server";
import { UPLOAD_EXPIRY_MS } from "#app/integrations/file-storage.server";
import { listBookingFiles } from "#app/models/booking-file.server";
import {
  deleteSessionFile,
  deliverSessionFiles,
  queueExpiryReminders,
  renameSessionFile,
  sweepSessionFiles,
} from "#app/workflows/session-files.server";
import { createBooking } from "#tests/factories/booking";
import { type BookingFileInput, createBookingFile } from "#tests/factories/booking-file";
import { DAY, makeUser, outboxFor } from "#tests/setup/workflow-bookings";

/**
 * The session files' workflows against a real SQLite file and the local storage in this
 * file's own FILES_DIR (tests/setup/env.ts): rename, delete (claim, delete the bytes, remove),
 * deliver with its e-mail, and the retention sweep.
 */

let customer: PublicUser;
let staff: PublicUser;

beforeEach(() => {
  customer = makeUser("filed");
  staff = makeUser("staff", { isAdmin: true });
});

const stored = (key: string) => join(env.FILES_DIR, "files", key);
const rowOf = (id: number) => db.select().from(bookingFiles).where(eq(bookingFiles.id, id)).get();

const refused = (kind: RefusalKind, message: string) =>
  expect.objectContaining({ name: "Refusal", kind, message });

function recordedBooking() {
  return createBooking(db, { user: customer, status: "RECORDED" });
}

function fileOf(bookingId: number, columns: Partial<BookingFileInput> = {}) {
  return createBookingFile(db, { bookingId, filesDir: env.FILES_DIR, ...columns });
}

describe("renameSessionFile", () => {
  it("renames a file, trimmed and composed", () => {
    const booking = recordedBooking();
    const file = fileOf(booking.id);
    renameSessionFile({
      bookingId: booking.id,
      fileId: file.id,
      name: "  Cafe\u0301 final.wav ",
      actorId: staff.id,
    });
    expect(rowOf(file.id)?.name).toBe("Café final.wav");
  });

  it.each([
    ["", SESSION_FILE_MESSAGES.nameRequired],
    ["a/b.wav", SESSION_FILE_MESSAGES.nameSeparator],
    ["a\tb.wav", SESSION_FILE_MESSAGES.nameControl],
    ["..", SESSION_FILE_MESSAGES.nameReserved],
    ["x".repeat(FILE_NAME_MAX + 1), SESSION_FILE_MESSAGES.nameTooLong],
  ])("refuses %j with our message, the name unchanged", (name, message) => {
    const booking = recordedBooking();
    const file = fileOf(booking.id, { name: "keep.wav" });
    expect(() =>
      renameSessionFile({ bookingId: booking.id, fileId: file.id, name, actorId: staff.id }),
    ).toThrow(refused("file-name-refused", message));
    expect(rowOf(file.id)?.name).toBe("keep.wav");
  });

  it("refuses a file of another booking, or one being deleted, as missing", () => {
    const booking = recordedBooking();
    const other = recordedBooking();
    const file = fileOf(booking.id);
    const missing = refused("file-gone", SESSION_FILE_MESSAGES.fileNotFound);
    expect(() =>
      renameSessionFile({ bookingId: other.id, fileId: file.id, name: "x.wav", actorId: staff.id }),
    ).toThrow(missing);
    db.update(bookingFiles)
      .set({ deletedAt: Date.now() })
      .where(eq(bookingFiles.id, file.id))
      .run();
    expect(() =>
      renameSessionFile({
        bookingId: booking.id,
        fileId: file.id,
        name: "x.wav",
        actorId: staff.id,
      }),
    ).toThrow(missing);
  });
});

describe("deleteSessionFile", () => {
  it("deletes the bytes, then the row", async () => {
    const booking = recordedBooking();
    const file = fileOf(booking.id);
    expect(existsSync(stored(file.storageKey))).toBe(true);
    expect(
      await deleteSessionFile({ bookingId: booking.id, fileId: file.id, actorId: staff.id }),
    ).toEqual({ ok: true });
    expect(existsSync(stored(file.storageKey))).toBe(false);
    expect(rowOf(file.id)).toBeUndefined();
  });

  it("a second delete, or one under another booking, finds nothing", async () => {
    const booking = recordedBooking();
    const file = fileOf(booking.id);
    const other = recordedBooking();
    const missing = refused("file-gone", SESSION_FILE_MESSAGES.fileNotFound);
    await expect(
      deleteSessionFile({ bookingId: other.id, fileId: file.id, actorId: staff.id }),
    ).rejects.toEqual(missing);
    expect(existsSync(stored(file.storageKey))).toBe(true);
    const [first, second] = await Promise.allSettled([
      deleteSessionFile({ bookingId: booking.id, fileId: file.id, actorId: staff.id }),
      deleteSessionFile({ bookingId: booking.id, fileId: file.id, actorId: staff.id }),
    ]);
    expect([first, second]).toContainEqual({ status: "fulfilled", value: { ok: true } });
    expect([first, second]).toContainEqual({ status: "rejected", reason: missing });
  });

  it("deletes a delivered file of a cancelled booking too (staff may, nothing else does)", async () => {
    const booking = createBooking(db, { user: customer, status: "CANCELLED" });
    const file = fileOf(booking.id, { delivered: true });
    expect(
      await deleteSessionFile({ bookingId: booking.id, fileId: file.id, actorId: staff.id }),
    ).toEqual({ ok: true });
  });
});

describe("deliverSessionFiles", () => {
  it("delivers the undelivered files, sets their expiry and e-mails a link, never the files", () => {
    const booking = recordedBooking();
    const earlier = fileOf(booking.id, { delivered: true, name: "old.wav" });
    const first = fileOf(booking.id, { name: "raw tracks.zip", size: 2 * 1024 ** 3 });
    const second = fileOf(booking.id, { name: "episode.mp3" });
    const before = Date.now();
    expect(deliverSessionFiles({ bookingId: booking.id, actorId: staff.id })).toBe(2);
    for (const id of [first.id, second.id]) {
      const row = rowOf(id);
      expect(row?.deliveredAt).toBeGreaterThanOrEqual(before);
      expect(row?.expiresAt).toBe((row?.deliveredAt ?? 0) + env.FILES_RETENTION_DAYS * DAY);
    }
    expect(rowOf(earlier.id)?.deliveredAt).toBe(earlier.deliveredAt);

    const [mail] = outboxFor(booking.id, "files-ready");
    expect(mail?.subject).toBe("Your files are ready");
    expect(mail?.toAddress).toBe(customer.email);
    expect(mail?.text).toContain(`${env.APP_URL}/dashboard/sessions/${booking.id}`);
    expect(mail?.text).toContain("raw tracks.zip: 2 GB");
    expect(mail?.html).toContain("episode.mp3");
    expect(mail?.attachments).toBeNull();
  });

  it("says so when there is nothing new to deliver, and queues no e-mail", () => {
    const booking = recordedBooking();
    fileOf(booking.id, { delivered: true });
    expect(() => deliverSessionFiles({ bookingId: booking.id, actorId: staff.id })).toThrow(
      refused("nothing-to-deliver", SESSION_FILE_MESSAGES.nothingToDeliver),
    );
    expect(() => deliverSessionFiles({ bookingId: 999_999, actorId: staff.id })).toThrow(
      refused("not-found", SESSION_FILE_MESSAGES.bookingNotFound),
    );
    expect(outboxFor(booking.id, "files-ready")).toHaveLength(0);
  });

  it("leaves files being deleted alone", () => {
    const booking = recordedBooking();
    const file = fileOf(booking.id);
    db.update(bookingFiles)
      .set({ deletedAt: Date.now() })
      .where(eq(bookingFiles.id, file.id))
      .run();
    expect(() => deliverSessionFiles({ bookingId: booking.id, actorId: staff.id })).toThrow(
      refused("nothing-to-deliver", SESSION_FILE_MESSAGES.nothingToDeliver),
    );
    expect(rowOf(file.id)?.deliveredAt).toBeNull();
  });
});

describe("the retention sweep", () => {
  it("reminds the customer once, a week before expiry, in one e-mail per booking", () => {
    const booking = recordedBooking();
    const now = Date.now();
    const expiresAt = now + 3 * DAY;
    const soon = fileOf(booking.id, { delivered: true, expiresAt, name: "soon.wav" });
    const alsoSoon = fileOf(booking.id, {
      delivered: true,
      expiresAt: expiresAt + DAY,
      name: "also.wav",
    });
    const later = fileOf(booking.id, {
      delivered: true,
      expiresAt: now + EXPIRY_REMINDER_LEAD_MS + DAY,
    });
    expect(queueExpiryReminders(now)).toBe(1);
    expect(queueExpiryReminders(now + 1)).toBe(0);
    const mails = outboxFor(booking.id, "files-expiring");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("Your session files will be deleted soon");
    expect(mails[0]?.text).toContain("soon.wav");
    expect(mails[0]?.text).toContain("also.wav");
    expect(mails[0]?.text).toContain(`/dashboard/sessions/${booking.id}`);
    expect(rowOf(soon.id)?.expiryReminderSentAt).toBe(now);
    expect(rowOf(alsoSoon.id)?.expiryReminderSentAt).toBe(now);
    expect(rowOf(later.id)?.expiryReminderSentAt).toBeNull();
  });

  it("deletes expired files, bytes and rows, and leaves the others", async () => {
    const booking = recordedBooking();
    const now = Date.now();
    const expired = fileOf(booking.id, { delivered: true, expiresAt: now - 1 });
    const live = fileOf(booking.id, { delivered: true, expiresAt: now + DAY });
    const undelivered = fileOf(booking.id);
    await sweepSessionFiles(now);
    expect(rowOf(expired.id)).toBeUndefined();
    expect(existsSync(stored(expired.storageKey))).toBe(false);
    expect(
      listBookingFiles(db, booking.id, { deliveredOnly: false }).map((file) => file.id),
    ).toEqual([live.id, undelivered.id]);
    expect(existsSync(stored(live.storageKey))).toBe(true);
  });

  it("finishes a deletion a crash left halfway, and not one just claimed", async () => {
    const booking = recordedBooking();
    const now = Date.now();
    const stale = fileOf(booking.id, { deletedAt: now - 11 * 60_000 });
    const fresh = fileOf(booking.id, { deletedAt: now - 1000 });
    await sweepSessionFiles(now);
    expect(rowOf(stale.id)).toBeUndefined();
    expect(existsSync(stored(stale.storageKey))).toBe(false);
    expect(rowOf(fresh.id)).toBeDefined();
    expect(existsSync(stored(fresh.storageKey))).toBe(true);
  });

  it("deletes uploads left unfinished past their expiry, and only those", async () => {
    const uploads = join(env.FILES_DIR, "uploads");
    mkdirSync(uploads, { recursive: true });
    const old = join(uploads, `b1-${"a".repeat(32)}`);
    const recent = join(uploads, `b1-${"b".repeat(32)}`);
    for (const path of [old, `${old}.json`, recent, `${recent}.json`]) writeFileSync(path, "x");
    const past = new Date(Date.now() - UPLOAD_EXPIRY_MS - 60_000);
    utimesSync(old, past, past);
    utimesSync(`${old}.json`, past, past);
    await sweepSessionFiles(Date.now());
    expect(existsSync(old)).toBe(false);
    expect(existsSync(`${old}.json`)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(`${recent}.json`)).toBe(true);
  });
});
