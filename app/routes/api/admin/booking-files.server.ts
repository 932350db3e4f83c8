import { Readable } from "node:stream";
import { ERRORS, EVENTS, Server, type Upload } from "@tus/server";
import busboy from "busboy";
import {
  bookingOfKey,
  formLimitMessage,
  SESSION_FILE_MESSAGES,
  tooLargeMessage,
} from "#app/domain/session-files";
import { logError } from "#app/log.server";
import type { BookingFileView } from "#app/models/booking-file.server";
import type { PublicUser } from "#app/models/user.server";
import { jsonError } from "#app/web/api.server";
import { redirectWithError, redirectWithSuccess } from "#app/web/toast.server";
import { fileStorage } from "#app/workflows/file-storage.server";
import {
  checkNewUpload,
  discardUpload,
  newUploadKey,
  recordUploadedFile,
  releaseFreeSpace,
  saveUploadStream,
  uploadLimits,
  uploadReservation,
} from "#app/workflows/session-files.server";
import { toBookingFileJson } from "#app/routes/api/json/session-file";

/**
 * Staff uploads to a booking (docs/product.md "Session files"), both ways in:
 * - the tus protocol (resumable, any size up to MAX_FILE_GB) through @tus/server: creation
 *   at /api/admin/bookings/{id}/files, then HEAD, PATCH and DELETE on the upload's URL
 *   /api/admin/bookings/{id}/files/{uploadId};
 * - a plain multipart form to the collection URL (no JavaScript), streamed to storage through
 *   busboy, up to MAX_FORM_UPLOAD_MB.
 * The admin API layout's guard already let only staff (with two-factor where required) in.
 */

/** Who uploads to which booking, per request, for the tus hooks (which only get the Request). */
type UploadRequest = { bookingId: number; admin: PublicUser };
const uploadRequests = new WeakMap<Request, UploadRequest>();

/** A refusal a tus hook throws: @tus/server answers it with this status and body. */
class TusRefusal {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {}
}

function requestOf(req: Request): UploadRequest {
  const known = uploadRequests.get(req);
  if (!known) throw new Error("A tus hook ran for a request the route did not register");
  return known;
}

let server: Server | undefined;

function tusServer(): Server {
  const { tusBytes } = uploadLimits();
  server ??= new Server({
    // Only used to build URLs, which generateUrl below builds itself.
    path: "/api/admin/bookings/files",
    datastore: fileStorage().datastore,
    maxSize: tusBytes,
    // A finished upload is a stored file: only the files workflow deletes it.
    disableTerminationForFinishedUploads: true,
    // Same-origin uploads only: no Access-Control-Allow-Origin for anyone.
    allowedOrigins: [],
    namingFunction: (req) => newUploadKey(requestOf(req as unknown as Request).bookingId),
    generateUrl: (_req, { id }) => `/api/admin/bookings/${bookingOfKey(id)}/files/${id}`,
    // An upload's URL names its booking twice (the path and the key): both must agree, so an
    // upload cannot be reached under another booking's path.
    getFileIdFromRequest: (req, lastPath) => {
      const known = uploadRequests.get(req as unknown as Request);
      return lastPath && known && bookingOfKey(lastPath) === known.bookingId ? lastPath : undefined;
    },
    onUploadCreate: async (req, upload) => {
      const { bookingId } = requestOf(req as unknown as Request);
      const check = await checkNewUpload({
        bookingId,
        name: upload.metadata?.filename ?? "",
        contentType: upload.metadata?.filetype ?? upload.metadata?.type ?? "",
        size: upload.size ?? null,
        limitBytes: tusBytes,
        // Without a size the upload is refused below: nothing to promise.
        reservation: upload.size === undefined ? undefined : uploadReservation(upload.id, "tus"),
      });
      if (!check.ok) throw new TusRefusal(check.status, check.message);
      if (upload.size === undefined) {
        throw new TusRefusal(
          400,
          "Please send the file's size (Upload-Length) when creating the upload.",
        );
      }
      return {
        metadata: { ...upload.metadata, filename: check.name, filetype: check.contentType },
      };
    },
    onUploadFinish: async (req, upload) => {
      const { bookingId, admin } = requestOf(req as unknown as Request);
      const file = await recordFinishedUpload(bookingId, admin, upload).finally(() =>
        releaseFreeSpace(upload.id),
      );
      // tus answers a finished PATCH with 204 and no body: the file's id goes in a header.
      return { headers: { "Studio-File-Id": String(file.id) } };
    },
    // Refusals leave here as JSON `{ message }` in our words; handleTus sends them as such.
    onResponseError: (_req, error) => {
      if (error instanceof TusRefusal) {
        return { status_code: error.status_code, body: JSON.stringify({ message: error.body }) };
      }
      const known = "status_code" in error ? error : undefined;
      if (!known) logError("tus upload", error);
      const status = known?.status_code ?? 500;
      const message = tusMessage(status, known?.body ?? "", tusBytes);
      return { status_code: status, body: JSON.stringify({ message }) };
    },
  });
  // An upload ended by its uploader (DELETE) no longer needs its space.
  server.on(EVENTS.POST_TERMINATE, (_req, _res, id) => releaseFreeSpace(id));
  return server;
}

async function recordFinishedUpload(
  bookingId: number,
  admin: PublicUser,
  upload: Upload,
): Promise<BookingFileView> {
  const stored = await fileStorage().finishUpload(upload.id);
  const result = await recordUploadedFile({
    bookingId,
    key: upload.id,
    name: upload.metadata?.filename ?? "",
    contentType: upload.metadata?.filetype ?? "",
    size: stored.size,
    sha256: stored.sha256,
    actorId: admin.id,
  });
  if (!result.ok) throw new TusRefusal(422, result.message);
  return result.file;
}

/** @tus/server's own refusals, in our words (its bodies are protocol jargon). */
function tusMessage(status: number, body: string, limitBytes: number): string {
  if (body === ERRORS.ERR_MAX_SIZE_EXCEEDED.body) return tooLargeMessage(limitBytes);
  if (body === ERRORS.ERR_SIZE_EXCEEDED.body) return "The upload sent more bytes than its size.";
  if (body === ERRORS.FILE_NOT_FOUND.body || body === ERRORS.FILE_NO_LONGER_EXISTS.body) {
    return "That upload does not exist or has expired. Please start the upload again.";
  }
  if (body === ERRORS.INVALID_OFFSET.body || body === ERRORS.MISSING_OFFSET.body) {
    return "The upload's offset does not match what arrived. Ask with HEAD and resume from there.";
  }
  if (body === ERRORS.INVALID_CONTENT_TYPE.body) {
    return "Send the upload's bytes as application/offset+octet-stream.";
  }
  if (body === ERRORS.INVALID_LENGTH.body) {
    return "Please send the file's size (Upload-Length) when creating the upload.";
  }
  if (body === ERRORS.INVALID_METADATA.body) {
    return "The upload's metadata (Upload-Metadata) could not be read.";
  }
  if (status === 501) {
    return "This site takes each file as one upload with its size: no parallel or deferred-length uploads.";
  }
  if (body === ERRORS.ABORTED.body) return SESSION_FILE_MESSAGES.uploadCut;
  if (body.startsWith("Tus-Resumable") || /^Invalid .*tus-resumable/i.test(body)) {
    return "Uploads speak the tus protocol: send Tus-Resumable: 1.0.0.";
  }
  if (body.startsWith("Invalid ")) return "A tus header of the request is not valid.";
  if (status >= 500) return SESSION_FILE_MESSAGES.storageUnavailable;
  return "The upload request was refused.";
}

/**
 * Answers a tus request (creation, HEAD, PATCH, DELETE) for `bookingId` by staff `admin`.
 * Every refusal is JSON `{ message }`, our words, with tus's headers kept.
 */
export async function handleTus(
  request: Request,
  bookingId: number,
  admin: PublicUser,
): Promise<Response> {
  uploadRequests.set(request, { bookingId, admin });
  const response = await tusServer().handleWeb(request);
  if (response.status < 400) {
    // tus answers without a body; the Fetch Response would call its empty one text/plain.
    const headers = new Headers(response.headers);
    headers.delete("Content-Type");
    headers.delete("Content-Length");
    await response.body?.cancel();
    return new Response(null, { status: response.status, headers });
  }
  const headers = new Headers(response.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.delete("Content-Length");
  const message = ourMessage(response.status, await response.text());
  // A tus extension we do not offer (501 from @tus/server) is the client's request to change.
  const status = response.status === 501 ? 400 : response.status;
  return new Response(JSON.stringify({ message }), { status, headers });
}

/** Ours from onResponseError, or one of @tus/server's direct answers put in our words. */
function ourMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === "string") return parsed.message;
  } catch {
    // @tus/server's plain-text answers: a missing or bad header, an unknown method.
  }
  return tusMessage(status, body, uploadLimits().tusBytes);
}

/** Whether a request speaks tus (creation or the upload's own URL). */
export function isTusRequest(request: Request): boolean {
  return request.headers.has("Tus-Resumable");
}

// --- the no-JavaScript form ------------------------------------------------------------------

type FormOutcome =
  | { ok: true; file: BookingFileView }
  | { ok: false; status: number; message: string };

/** The multipart envelope around the form's file: boundaries and part headers. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * The form's POST: one file in the field `file`, streamed through busboy to storage (never
 * buffered); a browser (Accept: text/html) is sent back to the booking's page with a toast,
 * an API client gets 201 `{ file }` or 4xx `{ message }`.
 */
export async function handleFormUpload(
  request: Request,
  bookingId: number,
  admin: PublicUser,
): Promise<Response> {
  const outcome = await receiveForm(request, bookingId, admin);
  const wantsPage = request.headers.get("Accept")?.includes("text/html") ?? false;
  if (wantsPage) {
    const page = `/admin/bookings/${bookingId}`;
    const init = { status: 303 };
    return outcome.ok
      ? redirectWithSuccess(page, { message: `${outcome.file.name} was uploaded.` }, init)
      : redirectWithError(page, { message: outcome.message }, init);
  }
  return outcome.ok
    ? Response.json({ file: toBookingFileJson(outcome.file) }, { status: 201 })
    : jsonError(outcome.status, outcome.message);
}

async function receiveForm(
  request: Request,
  bookingId: number,
  admin: PublicUser,
): Promise<FormOutcome> {
  const { formBytes } = uploadLimits();
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    return {
      ok: false,
      status: 415,
      message: "Send the file as multipart/form-data (field file), or use the tus protocol.",
    };
  }
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (length > formBytes + FORM_OVERHEAD_BYTES) {
    return { ok: false, status: 413, message: formLimitMessage(formBytes) };
  }
  if (!request.body) return { ok: false, status: 400, message: SESSION_FILE_MESSAGES.noFileChosen };

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      // The name as sent, so a path in it is refused rather than quietly cut to its last part.
      preservePath: true,
      // Browsers send the file name's UTF-8 bytes as they are (busboy would read them as Latin-1).
      defParamCharset: "utf8",
      limits: { files: 1, fileSize: formBytes, fields: 20, fieldSize: 1024, parts: 30 },
    });
  } catch {
    return { ok: false, status: 400, message: "The form could not be read." };
  }

  return new Promise<FormOutcome>((resolve) => {
    let saving: Promise<FormOutcome> | undefined;
    let settled = false;
    const finish = (outcome: FormOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };

    parser.on("file", (field, stream, info) => {
      // One file per post (busboy's `files` limit drops any further one).
      if (field !== "file" || saving) {
        stream.resume();
        return;
      }
      saving = saveFormFile(bookingId, admin, stream, info, formBytes);
    });
    parser.on("error", async () => {
      // A cut or malformed body: whatever was being saved is deleted by saveStream's failure.
      await saving?.catch(() => undefined);
      finish({ ok: false, status: 400, message: SESSION_FILE_MESSAGES.uploadCut });
    });
    parser.on("close", async () => {
      if (!saving) {
        finish({ ok: false, status: 400, message: SESSION_FILE_MESSAGES.noFileChosen });
        return;
      }
      finish(await saving);
    });

    const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
    body.on("error", (error) => parser.destroy(error));
    body.pipe(parser);
  });
}

async function saveFormFile(
  bookingId: number,
  admin: PublicUser,
  stream: Readable & { truncated?: boolean },
  info: busboy.FileInfo,
  formBytes: number,
): Promise<FormOutcome> {
  if (!info.filename) {
    stream.resume();
    return { ok: false, status: 400, message: SESSION_FILE_MESSAGES.noFileChosen };
  }
  const key = newUploadKey(bookingId);
  const check = await checkNewUpload({
    bookingId,
    name: info.filename,
    contentType: info.mimeType,
    size: null,
    limitBytes: formBytes,
    reservation: uploadReservation(key, "form"),
  });
  if (!check.ok) {
    stream.resume();
    return { ok: false, status: check.status, message: check.message };
  }
  try {
    return await storeFormFile(bookingId, admin, stream, key, check, formBytes);
  } finally {
    releaseFreeSpace(key);
  }
}

async function storeFormFile(
  bookingId: number,
  admin: PublicUser,
  stream: Readable & { truncated?: boolean },
  key: string,
  check: { name: string; contentType: string },
  formBytes: number,
): Promise<FormOutcome> {
  let stored: Awaited<ReturnType<typeof saveUploadStream>>;
  try {
    stored = await saveUploadStream(key, stream, check.contentType);
  } catch (error) {
    // Usually the browser went away mid-file; a storage failure is logged as one.
    if (!stream.destroyed || stream.readableEnded) {
      logError("form upload", error);
      return { ok: false, status: 503, message: SESSION_FILE_MESSAGES.storageUnavailable };
    }
    return { ok: false, status: 400, message: SESSION_FILE_MESSAGES.uploadCut };
  }
  if (stream.truncated) {
    await discardUpload(key);
    return { ok: false, status: 413, message: formLimitMessage(formBytes) };
  }
  if (stored.size === 0) {
    await discardUpload(key);
    return { ok: false, status: 400, message: SESSION_FILE_MESSAGES.empty };
  }
  const result = await recordUploadedFile({
    bookingId,
    key,
    name: check.name,
    contentType: check.contentType,
    size: stored.size,
    sha256: stored.sha256,
    actorId: admin.id,
  });
  return result.ok ? result : { ok: false, status: 422, message: result.message };
}
