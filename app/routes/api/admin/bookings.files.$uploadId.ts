import { parseId } from "#app/domain/ids";
import { storageKeyRecorded } from "#app/models/booking-file.server";
import { jsonError, methodNotAllowed } from "#app/web/api.server";
import { currentAdmin } from "#app/web/user-context.server";
import { handleTus } from "#app/routes/api/admin/booking-files.server";
import type { Route } from "./+types/bookings.files.$uploadId";
import * as doc from "#app/web/api-doc";
import { z } from "#app/domain/zod";

const NOT_FOUND = "That upload does not exist or has expired. Please start the upload again.";
const ALLOW = "HEAD, PATCH, DELETE";

/**
 * An upload in progress, /api/admin/bookings/{id}/files/{uploadId} (the tus protocol): HEAD
 * its offset, PATCH the next bytes from there, DELETE to give it up. A finished upload is a
 * stored file: it is no longer reachable here (the files workflow deletes files).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (request.method !== "HEAD") return methodNotAllowed(ALLOW);
  return answer(request, params, context);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return answer(request, params, context);
}

function answer(
  request: Request,
  params: { id: string; uploadId: string },
  context: Route.ActionArgs["context"],
) {
  const admin = currentAdmin(context);
  const id = parseId(params.id);
  if (id === null || storageKeyRecorded(params.uploadId)) return jsonError(404, NOT_FOUND);
  return handleTus(request, id, admin);
}

const tusPath = doc.idPath.extend({
  uploadId: z.string().meta({ description: "The upload's id, from the creation's Location" }),
});
const tusRefusals = {
  ...doc.ADMIN_GUARD,
  404: doc.refused(NOT_FOUND),
  412: doc.refused("A tus request of another protocol version"),
};

export const openapi: doc.ApiPaths = {
  "/api/admin/bookings/{id}/files/{uploadId}": {
    head: {
      summary: "A tus upload's offset (Upload-Offset, Upload-Length)",
      requestParams: { path: tusPath },
      responses: { 200: { description: "Upload-Offset: the bytes received" }, ...tusRefusals },
    },
    patch: {
      summary: "The next bytes of a tus upload, from Upload-Offset",
      requestParams: { path: tusPath },
      requestBody: {
        content: {
          "application/offset+octet-stream": { schema: z.string().meta({ format: "binary" }) },
        },
      },
      responses: {
        204: {
          description: "Received (Upload-Offset: the new offset); the last PATCH stores the file",
        },
        400: doc.refused("A tus header is not valid"),
        // The tus protocol's own status (clients ask HEAD and resume), not the JSON API's 409.
        409: doc.refused("Upload-Offset does not match the bytes received"),
        422: doc.refused("The booking no longer takes files (the bytes are deleted)"),
        413: doc.refused("More bytes than the upload's size"),
        415: doc.refused("A body not sent as application/offset+octet-stream"),
        ...tusRefusals,
      },
    },
    delete: {
      summary: "Gives up a tus upload in progress (its bytes are deleted)",
      requestParams: { path: tusPath },
      responses: {
        204: { description: "Deleted" },
        400: doc.refused("A tus header is not valid"),
        ...tusRefusals,
      },
    },
  },
};
