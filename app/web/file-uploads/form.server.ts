import { Readable } from "node:stream";
import busboy from "busboy";
import { formLimitMessage, SESSION_FILE_MESSAGES } from "#app/domain/session-files";
import { logError } from "#app/log.server";
import type { BookingFileView } from "#app/models/booking-file.server";
import type { Uploader, UploadSteps } from "#app/web/file-uploads/steps";

/**
 * The no-JavaScript upload: a plain multipart form posting one file in the field `file`,
 * streamed through busboy to storage (never buffered), up to MAX_FORM_UPLOAD_MB.
 */
export type FormOutcome =
  | { ok: true; file: BookingFileView }
  | { ok: false; status: number; message: string };

/** The multipart envelope around the form's file: boundaries and part headers. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

export async function receiveFormUpload(
  request: Request,
  uploader: Uploader,
  steps: UploadSteps,
): Promise<FormOutcome> {
  const { formBytes } = steps.limits();
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
      saving = saveFormFile(uploader, steps, stream, info, formBytes);
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
  uploader: Uploader,
  steps: UploadSteps,
  stream: Readable & { truncated?: boolean },
  info: busboy.FileInfo,
  formBytes: number,
): Promise<FormOutcome> {
  if (!info.filename) {
    stream.resume();
    return { ok: false, status: 400, message: SESSION_FILE_MESSAGES.noFileChosen };
  }
  const key = steps.newKey(uploader.bookingId);
  const check = await steps.check({
    bookingId: uploader.bookingId,
    name: info.filename,
    contentType: info.mimeType,
    size: null,
    limitBytes: formBytes,
    reservation: steps.reservation(key, "form"),
  });
  if (!check.ok) {
    stream.resume();
    return { ok: false, status: check.status, message: check.message };
  }
  try {
    return await storeFormFile(uploader, steps, stream, key, check, formBytes);
  } finally {
    steps.release(key);
  }
}

async function storeFormFile(
  uploader: Uploader,
  steps: UploadSteps,
  stream: Readable & { truncated?: boolean },
  key: string,
  check: { name: string; contentType: string },
  formBytes: number,
): Promise<FormOutcome> {
  let stored: Awaited<ReturnType<UploadSteps["save"]>>;
  try {
    stored = await steps.save(key, stream, check.contentType);
  } catch (error) {
    // Usually the browser went away mid-file; a storage failure is logged as one.
    if (!stream.destroyed || stream.readableEnded) {
      logError("form upload", error);
      return { ok: false, status: 503, message: SESSION_FILE_MESSAGES.storageUnavailable };
    }
    return { ok: false, status: 400, message: SESSION_FILE_MESSAGES.uploadCut };
  }
  if (stream.truncated) {
    await steps.discard(key);
    return { ok: false, status: 413, message: formLimitMessage(formBytes) };
  }
  if (stored.size === 0) {
    await steps.discard(key);
    return { ok: false, status: 400, message: SESSION_FILE_MESSAGES.empty };
  }
  const result = await steps.record({
    bookingId: uploader.bookingId,
    key,
    name: check.name,
    contentType: check.contentType,
    size: stored.size,
    sha256: stored.sha256,
    actorId: uploader.actorId,
  });
  return result.ok ? result : { ok: false, status: 422, message: result.message };
}
