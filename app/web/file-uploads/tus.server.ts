import { ERRORS, EVENTS, Server, type Upload } from "@tus/server";
import { bookingOfKey, SESSION_FILE_MESSAGES, tooLargeMessage } from "#app/domain/session-files";
import { logError } from "#app/log.server";
import type { BookingFileView } from "#app/models/booking-file.server";
import type { Uploader, UploadSteps } from "#app/web/file-uploads/steps";

class TusRefusal {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {}
}

export function isTusRequest(request: Request): boolean {
  return request.headers.has("Tus-Resumable");
}

export function tusUploads(steps: UploadSteps) {
  // The hooks only get the Request: who uploads to which booking is kept per request.
  const uploaders = new WeakMap<Request, Uploader>();
  const uploaderOf = (req: unknown): Uploader => {
    const known = uploaders.get(req as Request);
    if (!known) throw new Error("A tus hook ran for a request the route did not register");
    return known;
  };
  let server: Server | undefined;

  function tusServer(): Server {
    const { tusBytes } = steps.limits();
    server ??= new Server({
      // Only used to build URLs, which generateUrl below builds itself.
      path: "/api/admin/bookings/files",
      datastore: steps.datastore(),
      maxSize: tusBytes,
      // A finished upload is a stored file: only the files workflow deletes it.
      disableTerminationForFinishedUploads: true,
      allowedOrigins: [],
      namingFunction: (req) => steps.newKey(uploaderOf(req).bookingId),
      generateUrl: (_req, { id }) => `/api/admin/bookings/${bookingOfKey(id)}/files/${id}`,
      // Both must agree, so an upload cannot be reached under another booking's path.
      getFileIdFromRequest: (req, lastPath) => {
        const known = uploaders.get(req as unknown as Request);
        return lastPath && known && bookingOfKey(lastPath) === known.bookingId
          ? lastPath
          : undefined;
      },
      onUploadCreate: async (req, upload) => {
        const { bookingId } = uploaderOf(req);
        const check = await steps.check({
          bookingId,
          name: upload.metadata?.filename ?? "",
          contentType: upload.metadata?.filetype ?? upload.metadata?.type ?? "",
          size: upload.size ?? null,
          limitBytes: tusBytes,
          reservation: upload.size === undefined ? undefined : steps.reservation(upload.id, "tus"),
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
        const file = await recordFinished(uploaderOf(req), upload).finally(() =>
          steps.release(upload.id),
        );
        // tus answers a finished PATCH with 204 and no body: the file's id goes in a header.
        return { headers: { "Studio-File-Id": String(file.id) } };
      },
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
    server.on(EVENTS.POST_TERMINATE, (_req, _res, id) => steps.release(id));
    return server;
  }

  async function recordFinished(uploader: Uploader, upload: Upload): Promise<BookingFileView> {
    const stored = await steps.finishUpload(upload.id);
    const result = await steps.record({
      bookingId: uploader.bookingId,
      key: upload.id,
      name: upload.metadata?.filename ?? "",
      contentType: upload.metadata?.filetype ?? "",
      size: stored.size,
      sha256: stored.sha256,
      actorId: uploader.actorId,
    });
    if (!result.ok) throw new TusRefusal(422, result.message);
    return result.file;
  }

  function ourMessage(status: number, body: string): string {
    try {
      const parsed = JSON.parse(body) as { message?: unknown };
      if (typeof parsed.message === "string") return parsed.message;
    } catch {
      // @tus/server's plain-text answers: a missing or bad header, an unknown method.
    }
    return tusMessage(status, body, steps.limits().tusBytes);
  }

  async function handle(request: Request, uploader: Uploader): Promise<Response> {
    uploaders.set(request, uploader);
    const response = await tusServer().handleWeb(request);
    if (response.status < 400) {
      // The Fetch Response would call an empty body text/plain.
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
    const status = response.status === 501 ? 400 : response.status;
    return new Response(JSON.stringify({ message }), { status, headers });
  }

  return { handle };
}

/** Its bodies are protocol jargon. */
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
