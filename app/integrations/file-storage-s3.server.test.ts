import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Upload } from "@tus/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadKey } from "#app/domain/session-files";
import type { FileStorage } from "#app/integrations/file-storage.server";
import { UPLOAD_EXPIRY_MS } from "#app/integrations/file-storage.server";
import { s3FileStorage } from "#app/integrations/file-storage-s3.server";
import { type S3Emulator, startS3Emulator } from "#tests/setup/s3-emulator";

/**
 * The S3 storage against s3rver (tests/setup/s3-emulator.ts): the form's stream stored whole,
 * deletion (twice is fine), and the sweep of uploads abandoned past their expiry, which
 * @tus/s3-store finds with ListMultipartUploads.
 */
let emulator: S3Emulator;
let storage: FileStorage;

beforeAll(async () => {
  emulator = await startS3Emulator();
  storage = s3FileStorage({
    bucket: emulator.bucket,
    endpoint: emulator.endpoint,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  });
});

afterAll(async () => {
  await emulator?.close();
});

const newKey = () => uploadKey(7, randomBytes(16).toString("hex"));
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const uploadsFolder = () => join(emulator.directory, emulator.bucket, "._S3rver_uploads");
const openUploads = () => (existsSync(uploadsFolder()) ? readdirSync(uploadsFolder()) : []);

describe("S3 file storage", () => {
  it("stores a stream whole with its hash, and deletes it (a second delete is no error)", async () => {
    const key = newKey();
    const bytes = randomBytes(300_000);
    const stored = await storage.saveStream(key, Readable.from([bytes]), "audio/wav");
    expect(stored).toEqual({ size: bytes.length, sha256: sha256(bytes) });
    expect(sha256(readFileSync(emulator.objectPath(key)))).toBe(sha256(bytes));
    await storage.remove(key);
    expect(existsSync(emulator.objectPath(key))).toBe(false);
    await expect(storage.remove(key)).resolves.toBeUndefined();
  });

  it("refuses a key that is not one of ours", async () => {
    await expect(storage.remove("../escape")).rejects.toThrow(/Not a storage key/);
  });

  it("sweeps uploads left unfinished past their expiry, with their bookkeeping, and no others", async () => {
    const old = newKey();
    const recent = newKey();
    for (const key of [old, recent]) {
      await storage.datastore.create(new Upload({ id: key, size: 20 * 1024 * 1024, offset: 0 }));
    }
    expect(openUploads()).toHaveLength(2);
    // s3rver dates an upload by its folder's `key` file: age the first one past the expiry.
    const past = new Date(Date.now() - UPLOAD_EXPIRY_MS - 60_000);
    for (const id of openUploads()) {
      const file = join(uploadsFolder(), id, "key");
      if (readFileSync(file, "utf8") === old) utimesSync(file, past, past);
    }
    await storage.sweepAbandonedUploads();
    const left = openUploads().map((id) => readFileSync(join(uploadsFolder(), id, "key"), "utf8"));
    expect(left).toEqual([recent]);
    expect(existsSync(emulator.objectPath(`${old}.info`))).toBe(false);
    expect(existsSync(emulator.objectPath(`${recent}.info`))).toBe(true);
    await storage.remove(recent);
    expect(openUploads()).toEqual([]);
  });
});
