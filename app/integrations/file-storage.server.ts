import type { Readable } from "node:stream";
import type { DataStore } from "@tus/server";
import { bookingOfKey } from "#app/domain/session-files";

/**
 * Where session files live (docs/product.md "Session files"): the volume or S3-compatible
 * storage. Neither holds a file in memory; keys are ours (`uploadKey`), never a typed name.
 */

export type StoredFile = { size: number; sha256: string | null };

/** Both ends included, as HTTP's Range counts them. */
export type ByteRange = { start: number; end: number };

export type FileDownload =
  | {
      kind: "stream";
      stat(key: string): Promise<{ size: number; modifiedAt: number } | undefined>;
      open(key: string, range?: ByteRange): Readable;
    }
  /** A short-lived signed URL: the bytes never pass through this server. */
  | {
      kind: "signed";
      url(
        key: string,
        options: { name: string; contentType: string; disposition: string },
      ): Promise<string>;
    };

export interface FileStorage {
  readonly kind: "local" | "s3";
  readonly datastore: DataStore;
  /** Null when storage has no limit we can read. */
  freeBytes(): Promise<number | null>;
  /** Drops the upload's bookkeeping too, so an expired-upload sweep can never touch it. */
  finishUpload(key: string): Promise<StoredFile>;
  /** A failed stream (a cut request, a size limit) keeps nothing and throws. */
  saveStream(key: string, source: Readable, contentType: string): Promise<StoredFile>;
  /** A missing file is not an error. */
  remove(key: string): Promise<void>;
  sweepAbandonedUploads(): Promise<number>;
  download: FileDownload;
}

export const UPLOAD_EXPIRY_MS = 24 * 60 * 60_000;

/** Anything else reaching a storage path is a bug, never a name to trust. */
export function checkedKey(key: string): string {
  if (bookingOfKey(key) === undefined) throw new Error(`Not a storage key: ${key}`);
  return key;
}
