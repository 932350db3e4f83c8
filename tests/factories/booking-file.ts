import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bookingFiles } from "#db/schema";
import { uploadKey } from "#app/domain/session-files";
import type { FactoryDb } from "#tests/factories/database";

type BookingFile = typeof bookingFiles.$inferSelect;

export type BookingFileInput = Partial<typeof bookingFiles.$inferInsert> & {
  bookingId: number;
  /** The server's FILES_DIR: the bytes are written where its local storage keeps whole files. */
  filesDir: string;
  content?: Buffer | string;
  /** Delivered now, expiring in 90 days, unless the columns say otherwise. */
  delivered?: boolean;
};

const DAY = 24 * 60 * 60_000;

/**
 * A stored session file: its bytes in FILES_DIR/files/<key> (the local storage's layout) and
 * its row, as an upload followed by staff's "deliver" would leave them.
 */
export function createBookingFile(db: FactoryDb, input: BookingFileInput): BookingFile {
  const { filesDir, content = "one two three", delivered = false, ...columns } = input;
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  const key = uploadKey(input.bookingId, randomBytes(16).toString("hex"));
  mkdirSync(join(filesDir, "files"), { recursive: true });
  writeFileSync(join(filesDir, "files", key), bytes);
  const now = Date.now();
  return db
    .insert(bookingFiles)
    .values({
      name: "episode.txt",
      contentType: "text/plain",
      size: bytes.length,
      storageKey: key,
      deliveredAt: delivered ? now : null,
      expiresAt: delivered ? now + 90 * DAY : null,
      ...columns,
    })
    .returning()
    .get();
}
