import type { Readable } from "node:stream";
import type { DataStore } from "@tus/server";
import type { BookingFileView } from "#app/models/booking-file.server";

/**
 * What the upload protocols (tus.server.ts, form.server.ts) ask of the session files workflow
 * at each step of an upload. The route passes them in: the protocols speak HTTP, and every
 * decision of docs/product.md "Session files" is the workflow's.
 */
export type UploadSteps = {
  /** The most bytes a tus upload and the form may carry. */
  limits(): { tusBytes: number; formBytes: number };
  /** Where @tus/server writes resumable uploads. */
  datastore(): DataStore;
  newKey(bookingId: number): string;
  /** Whether an upload may start; when it may, its space stays promised until `release`. */
  check(upload: {
    bookingId: number;
    name: string;
    contentType: string;
    size: number | null;
    limitBytes: number;
    reservation?: { id: string; expiresAt: number } | undefined;
  }): Promise<
    { ok: true; name: string; contentType: string } | { ok: false; status: number; message: string }
  >;
  reservation(key: string, kind: "tus" | "form"): { id: string; expiresAt: number };
  release(key: string): void;
  /** Makes a finished tus upload a stored file. */
  finishUpload(key: string): Promise<StoredBytes>;
  /** Stores the form's file; on any failure nothing is kept and it throws. */
  save(key: string, source: Readable, contentType: string): Promise<StoredBytes>;
  discard(key: string): Promise<void>;
  record(file: {
    bookingId: number;
    key: string;
    name: string;
    contentType: string;
    size: number;
    sha256: string | null;
    actorId: number | null;
  }): Promise<{ ok: true; file: BookingFileView } | { ok: false; message: string }>;
};

type StoredBytes = { size: number; sha256: string | null };

/** Who uploads to which booking. */
export type Uploader = { bookingId: number; actorId: number };
