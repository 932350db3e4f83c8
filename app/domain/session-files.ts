import type { BookingStatus } from "#app/domain/booking-status";
import { z } from "#app/domain/zod";

/**
 * docs/product.md "Session files". Pure: the admin uploader checks before it sends a byte, and
 * the server checks again.
 */

export const FILE_NAME_MAX = 200;

const BYTES_PER_MB = 1024 * 1024;
const BYTES_PER_GB = 1024 * BYTES_PER_MB;
const DAY_MS = 24 * 60 * 60_000;

/** Matches the window of the reminder sweep (listDueExpiryReminders). */
export const EXPIRY_REMINDER_LEAD_MS = 7 * DAY_MS;

export const UPLOAD_STATUSES: readonly BookingStatus[] = [
  "RECORDED",
  "POST_PRODUCTION",
  "COMPLETED",
];

export function canUploadFiles(status: BookingStatus): boolean {
  return UPLOAD_STATUSES.includes(status);
}

export const SESSION_FILE_MESSAGES = {
  nameRequired: "Please enter a file name",
  nameTooLong: `Please keep the file name under ${FILE_NAME_MAX + 1} characters`,
  nameSeparator: "A file name cannot contain / or \\",
  nameControl: "A file name cannot contain control characters or line breaks",
  nameReserved: "Please choose a file name other than . or ..",
  nameEdgeSpaces: "A file name cannot start or end with a space or end with a dot",
  contentType:
    "This type of file cannot be uploaded. Please upload audio, video, an image, a PDF, a zip archive or a text file.",
  bookingNotFound: "That booking does not exist.",
  fileNotFound: "That file does not exist or has been deleted.",
  notRecorded: "Files can be added once the session is recorded. Mark the booking Recorded first.",
  empty: "The file is empty. Please choose a file with something in it.",
  noFileChosen: "Please choose a file to upload.",
  oneFileOnly: "Please upload one file at a time.",
  uploadCut:
    "The upload stopped before the whole file arrived. Nothing was saved; please try again.",
  nothingToDeliver: "There are no new files to deliver for this booking.",
  storageUnavailable:
    "File storage is not reachable right now. Nothing was changed; please try again in a moment.",
} as const;

/** The download routes' 404s: the same for a missing id and another customer's. */
export const FILES_API_NOT_FOUND = {
  booking: "Booking not found",
  file: "File not found",
} as const;

export function tooLargeMessage(limitBytes: number): string {
  return `This file is too large. Files can be up to ${formatBytes(limitBytes)}.`;
}

export function formLimitMessage(limitBytes: number): string {
  return `This form takes files up to ${formatBytes(limitBytes)}. Use the uploader (with JavaScript on) for larger files.`;
}

/** The form's refusal: its file's size is known only as it arrives, so its limit must fit. */
export function noSpaceForFormMessage(limitBytes: number): string {
  return `There is not enough free space to take a file of up to ${formatBytes(limitBytes)}. Please delete old files or ask for more storage.`;
}

export function noSpaceMessage(sizeBytes: number): string {
  return `There is not enough free space to store this file (${formatBytes(sizeBytes)}). Please delete old files or ask for more storage.`;
}

// C0, DEL, C1, the Unicode line separators, and the bidirectional overrides (which make a name
// read differently from what it is).
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const SEPARATOR = /[/\\]/;

/**
 * Names are never storage paths (keys are ours), but a separator or a control character would
 * still mislead a person or a file manager.
 */
export function fileNameProblem(name: string): string | null {
  if (name.trim() === "") return SESSION_FILE_MESSAGES.nameRequired;
  if ([...name].length > FILE_NAME_MAX) return SESSION_FILE_MESSAGES.nameTooLong;
  if (SEPARATOR.test(name)) return SESSION_FILE_MESSAGES.nameSeparator;
  if (CONTROL.test(name)) return SESSION_FILE_MESSAGES.nameControl;
  if (name === "." || name === "..") return SESSION_FILE_MESSAGES.nameReserved;
  if (name !== name.trim() || name.endsWith(".")) return SESSION_FILE_MESSAGES.nameEdgeSpaces;
  return null;
}

/** Composed Unicode, so one name is stored one way. */
export const sessionFileNameSchema: z.ZodType<string> = z
  .string({ error: SESSION_FILE_MESSAGES.nameRequired })
  .transform((value) => value.normalize("NFC").trim())
  .superRefine((value, ctx) => {
    const problem = fileNameProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** A path is not cut to its last part: a name with a separator is refused, whatever sent it. */
export function uploadedFileName(declared: string): string {
  return declared.normalize("NFC").trim();
}

/** Content-Disposition's plain `filename=`: printable ASCII; the exact name goes in `filename*`. */
export function asciiDownloadName(name: string): string {
  const ascii = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "_")
    .replace(/["\\%]/g, "_")
    .trim();
  return ascii === "" || ascii === "." || ascii === ".." ? "download" : ascii;
}

/** RFC 6266. */
export function attachmentDisposition(name: string): string {
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${asciiDownloadName(name)}"; filename*=UTF-8''${exact}`;
}

/** Types a page would run as code if opened from storage: refused, though they are "text" or "image". */
const ACTIVE_TYPES = new Set([
  "text/html",
  "text/javascript",
  "text/ecmascript",
  "text/xml",
  "text/xsl",
  "image/svg+xml",
]);

const ALLOWED_APPLICATION_TYPES = new Set([
  "application/pdf",
  "application/zip",
  "application/x-zip-compressed",
]);

export function normalizeContentType(type: string): string {
  return (type.split(";")[0] ?? "").trim().toLowerCase();
}

const TYPE_TOKEN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

export function isAllowedContentType(type: string): boolean {
  const normalized = normalizeContentType(type);
  if (!TYPE_TOKEN.test(normalized) || ACTIVE_TYPES.has(normalized)) return false;
  const [top] = normalized.split("/");
  if (top === "audio" || top === "video" || top === "image" || top === "text") return true;
  return ALLOWED_APPLICATION_TYPES.has(normalized);
}

/** For `<input type=file accept=...>`: the same families, plus extensions browsers type vaguely. */
export const ALLOWED_FILE_ACCEPT =
  "audio/*,video/*,image/*,text/plain,text/csv,application/pdf,application/zip,.zip,.pdf,.txt,.srt,.vtt,.wav,.flac,.aif,.aiff,.m4a,.mp3,.mp4,.mov";

/** Types for the extensions a browser or OS often sends as "" or application/octet-stream. */
const TYPES_BY_EXTENSION: Record<string, string> = {
  wav: "audio/wav",
  flac: "audio/flac",
  aif: "audio/aiff",
  aiff: "audio/aiff",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  mp4: "video/mp4",
  m4v: "video/mp4",
  mov: "video/quicktime",
  mkv: "video/x-matroska",
  webm: "video/webm",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  zip: "application/zip",
  txt: "text/plain",
  csv: "text/csv",
  md: "text/markdown",
  srt: "text/plain",
  vtt: "text/vtt",
};

/** Declared type first; the extension's only when nothing useful was declared. */
export function resolveContentType(declared: string, name: string): string {
  const normalized = normalizeContentType(declared);
  if (normalized !== "" && normalized !== "application/octet-stream") return normalized;
  const extension = name.includes(".") ? name.split(".").pop()?.toLowerCase() : undefined;
  return (extension && TYPES_BY_EXTENSION[extension]) || normalized || "application/octet-stream";
}

export function gigabytes(count: number): number {
  return count * BYTES_PER_GB;
}

export function megabytes(count: number): number {
  return count * BYTES_PER_MB;
}

export function fileSizeProblem(size: number, limitBytes: number): string | null {
  if (!Number.isSafeInteger(size) || size < 0) return tooLargeMessage(limitBytes);
  if (size === 0) return SESSION_FILE_MESSAGES.empty;
  if (size > limitBytes) return tooLargeMessage(limitBytes);
  return null;
}

/** The volume also holds the database, which must never run out of room for a booking. */
export function fitsInFreeSpace(size: number, freeBytes: number, reserveBytes: number): boolean {
  return size + reserveBytes <= freeBytes;
}

export function fileExpiresAt(deliveredAt: number, retentionDays: number): number {
  return deliveredAt + retentionDays * DAY_MS;
}

/** Binary units, as people read them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  const units = ["KB", "MB", "GB", "TB"] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const rounded = value >= 10 || Number.isInteger(value) ? Math.round(value) : value.toFixed(1);
  return `${String(rounded).replace(/\.0$/, "")} ${units[unit]}`;
}

const STORAGE_KEY = /^b(\d{1,15})-([0-9a-f]{32})$/;

/** The booking's id inside lets the tus routes refuse an upload URL used under another booking. */
export function uploadKey(bookingId: number, random: string): string {
  return `b${bookingId}-${random}`;
}

export function bookingOfKey(key: string): number | undefined {
  const match = STORAGE_KEY.exec(key);
  return match ? Number(match[1]) : undefined;
}
