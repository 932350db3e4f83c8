import {
  fileNameProblem,
  fileSizeProblem,
  isAllowedContentType,
  resolveContentType,
  SESSION_FILE_MESSAGES,
  tooLargeMessage,
  uploadedFileName,
} from "#app/domain/session-files";

/** An answer without our `{message}` (a proxy's page) is read by its status: no foreign text. */
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

export function declaredType(file: { name: string; type: string }): string {
  return resolveContentType(file.type, uploadedFileName(file.name));
}

/** `status` 0: no answer at all. */
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
 * Retries a dropped connection, a 5xx, and on an upload under way the protocol's 409/423; never a
 * refusal, which would only be refused again (another 4xx, a 409 to the creation, 507).
 */
export function shouldRetryUpload(status: number, method: string): boolean {
  if (status === 0) return true;
  if (status === 507) return false;
  if (status >= 500) return true;
  const underWay = method.toUpperCase() === "HEAD" || method.toUpperCase() === "PATCH";
  return underWay && (status === 409 || status === 423);
}
