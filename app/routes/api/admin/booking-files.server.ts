import { fileStorage } from "#app/adapters.server";
import type { PublicUser } from "#app/models/user.server";
import { toBookingFileJson } from "#app/routes/api/json/session-file";
import { jsonError } from "#app/web/api.server";
import { receiveFormUpload } from "#app/web/file-uploads/form.server";
import type { UploadSteps } from "#app/web/file-uploads/steps";
import { tusUploads } from "#app/web/file-uploads/tus.server";
import { redirectWithError, redirectWithSuccess } from "#app/web/toast.server";
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

/**
 * Staff uploads to a booking (docs/product.md "Session files"), both ways in: the tus protocol
 * and the no-JavaScript form (app/web/file-uploads/), each step done by the files workflow.
 * The admin API layout's guard already let only staff (with two-factor where required) in.
 */
const steps: UploadSteps = {
  limits: uploadLimits,
  datastore: () => fileStorage().datastore,
  newKey: newUploadKey,
  check: checkNewUpload,
  reservation: uploadReservation,
  release: releaseFreeSpace,
  finishUpload: (key) => fileStorage().finishUpload(key),
  save: saveUploadStream,
  discard: discardUpload,
  record: recordUploadedFile,
};

const tus = tusUploads(steps);

/** A tus request (creation, HEAD, PATCH, DELETE) for `bookingId` by staff `admin`. */
export function handleTus(request: Request, bookingId: number, admin: PublicUser) {
  return tus.handle(request, { bookingId, actorId: admin.id });
}

/**
 * The form's POST: a browser (Accept: text/html) is sent back to the booking's page with a
 * toast, an API client gets 201 `{ file }` or 4xx `{ message }`.
 */
export async function handleFormUpload(
  request: Request,
  bookingId: number,
  admin: PublicUser,
): Promise<Response> {
  const outcome = await receiveFormUpload(request, { bookingId, actorId: admin.id }, steps);
  if (request.headers.get("Accept")?.includes("text/html")) {
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
