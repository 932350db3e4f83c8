import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync } from "node:fs";
import { readdir, rename, rm, stat, statfs } from "node:fs/promises";
import { join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { FileStore } from "@tus/file-store";
import {
  checkedKey,
  type FileStorage,
  type StoredFile,
  UPLOAD_EXPIRY_MS,
} from "#app/integrations/file-storage.server";

/**
 * `uploads/` holds uploads under way (nothing anyone sees; swept after UPLOAD_EXPIRY_MS);
 * `files/` whole files, renamed there on the same volume once the last byte arrived.
 */
export function localFileStorage(directory: string): FileStorage {
  const uploads = join(directory, "uploads");
  const files = join(directory, "files");
  mkdirSync(uploads, { recursive: true });
  mkdirSync(files, { recursive: true });
  const datastore = new FileStore({
    directory: uploads,
    expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
  });
  const stored = (key: string) => join(files, checkedKey(key));

  return {
    kind: "local",
    datastore,

    async freeBytes() {
      const fs = await statfs(directory);
      return fs.bavail * fs.bsize;
    },

    async finishUpload(key) {
      const from = join(uploads, checkedKey(key));
      await rename(from, stored(key));
      await rm(`${from}.json`, { force: true });
      const { size } = await stat(stored(key));
      return { size, sha256: null };
    },

    async saveStream(key, source) {
      const partial = join(uploads, `${checkedKey(key)}.form`);
      const hash = createHash("sha256");
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(source, count, createWriteStream(partial, { flags: "wx" }));
        await rename(partial, stored(key));
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { size, sha256: hash.digest("hex") } satisfies StoredFile;
    },

    async remove(key) {
      const name = checkedKey(key);
      await rm(join(files, name), { force: true });
      await rm(join(uploads, name), { force: true });
      await rm(join(uploads, `${name}.json`), { force: true });
      await rm(join(uploads, `${name}.form`), { force: true });
    },

    // Not @tus/file-store's deleteExpired: it reads offsets from the .json written at creation and
    // would take a finished upload for unfinished. Everything in uploads/ is unfinished.
    async sweepAbandonedUploads() {
      const cutoff = Date.now() - UPLOAD_EXPIRY_MS;
      let removed = 0;
      for (const entry of await readdir(uploads)) {
        const path = join(uploads, entry);
        const info = await stat(path).catch(() => undefined);
        if (!info?.isFile() || info.mtimeMs > cutoff) continue;
        await rm(path, { force: true });
        if (!entry.endsWith(".json")) removed++;
      }
      return removed;
    },

    download: {
      kind: "stream",
      async stat(key) {
        const info = await stat(stored(key)).catch(() => undefined);
        return info?.isFile() ? { size: info.size, modifiedAt: info.mtimeMs } : undefined;
      },
      open(key, range) {
        return createReadStream(stored(key), range ? { start: range.start, end: range.end } : {});
      },
    },
  };
}
