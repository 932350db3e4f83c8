import type { RouterContextProvider } from "react-router";
import { parseId } from "#app/domain/ids";
import { attachmentDisposition, FILES_API_NOT_FOUND } from "#app/domain/session-files";
import { type BookingFile, getBookingFile } from "#app/models/booking-file.server";
import { getBooking } from "#app/models/booking.server";
import type { PublicUser } from "#app/models/user.server";
import { jsonError } from "#app/web/api.server";
import { parseRange, rangeStillValid } from "#app/web/byte-range";
import { isStaff, requireApiUser } from "#app/web/user-context.server";
import { createReadableStreamFromReadable } from "@react-router/node";
import { fileStorage } from "#app/adapters.server";
import { db } from "#app/db.server";

type Booking = NonNullable<ReturnType<typeof getBooking>>;

/**
 * Who may see a booking's files (docs/product.md "Session files"): its owner (delivered files
 * only) and staff (all), as the staff gate counts them: an admin it holds back is a customer
 * here. Asked on every request. Anyone else, like a booking or file that does
 * not exist, gets 404, so ids cannot be probed; a visitor gets 401 as on every /api route.
 */
const BOOKING_NOT_FOUND = FILES_API_NOT_FOUND.booking;
const FILE_NOT_FOUND = FILES_API_NOT_FOUND.file;

export async function requireFilesAccess(
  request: Request,
  context: Readonly<RouterContextProvider>,
  idParam: string | undefined,
): Promise<{ user: PublicUser; booking: Booking; staff: boolean }> {
  const user = await requireApiUser(request, context);
  const staff = await isStaff(request, context);
  const id = parseId(idParam);
  const booking = id === null ? undefined : getBooking(db, id);
  if (!booking || (booking.userId !== user.id && !staff)) {
    throw jsonError(404, BOOKING_NOT_FOUND);
  }
  return { user, booking, staff };
}

/** The file the caller may download, or a 404 thrown: undelivered files are staff's alone. */
export function requireDownloadableFile(
  booking: Booking,
  fileIdParam: string | undefined,
  staff: boolean,
  now: number,
): BookingFile {
  const fileId = parseId(fileIdParam);
  const file = fileId === null ? undefined : getBookingFile(booking.id, fileId);
  const visible =
    file !== undefined &&
    (staff || file.deliveredAt !== null) &&
    (file.expiresAt === null || file.expiresAt > now);
  if (!visible) throw jsonError(404, FILE_NOT_FOUND);
  return file;
}

/**
 * The bytes of `file`: from the local directory with Range support (206, 416), or a 302 to a
 * short-lived signed URL when the files are in object storage. Streamed, never read whole.
 */
export async function downloadResponse(request: Request, file: BookingFile): Promise<Response> {
  const storage = fileStorage();
  const disposition = attachmentDisposition(file.name);
  if (storage.download.kind === "signed") {
    const url = await storage.download.url(file.storageKey, {
      name: file.name,
      contentType: file.contentType,
      disposition,
    });
    return new Response(null, { status: 302, headers: { Location: url } });
  }
  const stored = await storage.download.stat(file.storageKey);
  if (!stored) throw jsonError(404, FILE_NOT_FOUND);
  const size = stored.size;
  // The bytes of a file id never change (a rename changes only its name): id, size and upload
  // time make a strong validator, so a resumed download can send If-Range.
  const etag = `"f${file.id}-${size}-${file.createdAt}"`;
  const lastModified = new Date(file.createdAt).toUTCString();
  const headers = new Headers({
    "Accept-Ranges": "bytes",
    "Content-Type": file.contentType,
    "Content-Disposition": disposition,
    ETag: etag,
    "Last-Modified": lastModified,
    "X-Content-Type-Options": "nosniff",
  });
  const asked = rangeStillValid(request.headers.get("If-Range"), { etag, lastModified })
    ? parseRange(request.headers.get("Range"), size)
    : ({ kind: "whole" } as const);
  if (asked.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    headers.set("Content-Type", "application/json; charset=utf-8");
    return new Response(
      JSON.stringify({
        message: "That part of the file does not exist. Ask for bytes within its size.",
      }),
      { status: 416, headers },
    );
  }
  const range = asked.kind === "partial" ? asked.range : undefined;
  const length = range ? range.end - range.start + 1 : size;
  headers.set("Content-Length", String(length));
  if (range) headers.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
  const status = range ? 206 : 200;
  if (request.method === "HEAD" || length === 0) return new Response(null, { status, headers });
  const body = createReadableStreamFromReadable(storage.download.open(file.storageKey, range));
  return new Response(body, { status, headers });
}
