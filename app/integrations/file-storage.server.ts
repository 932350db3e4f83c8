import type { Readable } from "node:stream";
import type { DataStore } from "@tus/server";
import { bookingOfKey } from "#app/domain/session-files";

/**
 * Where session files live (docs/product.md "Session files"): a directory on the volume
 * (file-storage-local.server.ts) or S3-compatible object storage (file-storage-s3.server.ts).
 * Both hand @tus/server a data store for resumable uploads and take whole streams for the
 * no-JavaScript form; neither ever holds a file in memory. Keys are ours (`uploadKey`), never a
 * name a person typed.
 */

export type StoredFile = { size: number; sha256: string | null };

/** A byte range of a stored file, both ends included (as HTTP's Range counts them). */
export type ByteRange = { start: number; end: number };

export type FileDownload =
  /** The bytes come through this server (the local directory). */
  | {
      kind: "stream";
      /** Undefined when the stored file is missing. */
      stat(key: string): Promise<{ size: number; modifiedAt: number } | undefined>;
      open(key: string, range?: ByteRange): Readable;
    }
  /** The browser fetches the bytes from storage with a short-lived signed URL. */
  | {
      kind: "signed";
      url(
        key: string,
        options: { name: string; contentType: string; disposition: string },
      ): Promise<string>;
    };

export interface FileStorage {
  readonly kind: "local" | "s3";
  /** The store @tus/server writes resumable uploads to. */
  readonly datastore: DataStore;
  /** Free bytes where files are written; null when storage has no limit we can read. */
  freeBytes(): Promise<number | null>;
  /**
   * Makes a finished resumable upload a stored file under the same key (the local store moves
   * it out of its upload folder; object storage has it in place already) and drops the
   * upload's bookkeeping, so an expired-upload sweep can never touch it.
   */
  finishUpload(key: string): Promise<StoredFile>;
  /**
   * Stores a whole stream under `key`. When the stream fails (the request was cut, a size
   * limit tripped), nothing is kept and the error is thrown.
   */
  saveStream(key: string, source: Readable, contentType: string): Promise<StoredFile>;
  /** Deletes a stored file and any remains of its upload; a missing file is not an error. */
  remove(key: string): Promise<void>;
  /** Deletes resumable uploads left unfinished longer than the expiry; returns how many. */
  sweepAbandonedUploads(): Promise<number>;
  download: FileDownload;
}

/** Resumable uploads left this long without finishing are deleted with their parts. */
export const UPLOAD_EXPIRY_MS = 24 * 60 * 60_000;

/** Keys are ours; anything else reaching a storage path is a bug, never a name to trust. */
export function checkedKey(key: string): string {
  if (bookingOfKey(key) === undefined) throw new Error(`Not a storage key: ${key}`);
  return key;
}
