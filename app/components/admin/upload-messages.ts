import {
  fileNameProblem,
  fileSizeProblem,
  isAllowedContentType,
  resolveContentType,
  SESSION_FILE_MESSAGES,
  tooLargeMessage,
  uploadedFileName,
} from "#app/domain/session-files";

/**
 * What the admin uploader says about one file (docs/product.md "Session files"), in our words:
 * its checks before a byte is sent, and the server's refusals, which the server writes as
 * JSON `{message}`; an answer without one (a proxy's page, a library's text) is read by its
 * status instead, so no foreign message reaches staff.
 */

export const UPLOAD_MESSAGES = {
  signedOut:
    "You are no longer signed in as staff. Please sign in again, then choose the file again.",
  gone: "The server no longer has this upload. Please choose the file again.",
  busy: "Someone else is uploading this file right now. Please wait a moment, then resume.",
  refused: "The server refused this file. Please check it and try again.",
  server: "The server could not take this file just now. Press Resume to try again.",
  network:
    "The connection dropped and did not come back. Press Resume to carry on from where it stopped.",
} as const;

/** Why `file` cannot be uploaded, checked in the browser before sending anything; else null. */
export function fileProblem(
  file: { name: string; size: number; type: string },
  maxFileBytes: number,
): string | null {
  const name = uploadedFileName(file.name);
  const nameProblem = fileNameProblem(name);
  if (nameProblem) return nameProblem;
  if (!isAllowedContentType(resolveContentType(file.type, name))) {
    return SESSION_FILE_MESSAGES.contentType;
  }
  return fileSizeProblem(file.size, maxFileBytes);
}

/** The type the upload declares: the browser's, or the one its extension names. */
export function declaredType(file: { name: string; type: string }): string {
  return resolveContentType(file.type, uploadedFileName(file.name));
}

/** The message a failed request's answer gives staff. `status` 0: no answer at all. */
export function uploadErrorMessage(status: number, body: string, maxFileBytes: number): string {
  const own = ownMessage(body);
  if (own && status >= 400 && status < 500) return own;
  if (status === 0) return UPLOAD_MESSAGES.network;
  if (status === 401 || status === 403) return UPLOAD_MESSAGES.signedOut;
  if (status === 404 || status === 410) return UPLOAD_MESSAGES.gone;
  if (status === 413) return tooLargeMessage(maxFileBytes);
  if (status === 415) return SESSION_FILE_MESSAGES.contentType;
  if (status === 423) return UPLOAD_MESSAGES.busy;
  if (status >= 500) return own ?? UPLOAD_MESSAGES.server;
  return UPLOAD_MESSAGES.refused;
}

function ownMessage(body: string): string | null {
  if (!body.trimStart().startsWith("{")) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && "message" in parsed) {
      const { message } = parsed as { message: unknown };
      if (typeof message === "string" && message.trim() !== "") return message;
    }
  } catch {
    // Not JSON after all: read by the status.
  }
  return null;
}

/**
 * Whether tus-js-client should try a failed request again: a dropped connection or a server
 * error; and, on an upload already under way (HEAD, PATCH), the protocol's "try again" answers
 * (409: the offset moved, 423: locked). Never a refusal, which would only be refused again:
 * any other 4xx, a 409 to the creation (the booking is not recorded yet) or to the last PATCH
 * the server could not record, and 507 (no space left).
 */
export function shouldRetryUpload(status: number, method: string): boolean {
  if (status === 0) return true;
  if (status === 507) return false;
  if (status >= 500) return true;
  const underWay = method.toUpperCase() === "HEAD" || method.toUpperCase() === "PATCH";
  return underWay && (status === 409 || status === 423);
}
