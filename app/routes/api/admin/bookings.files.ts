import { parseId } from "#app/domain/ids";
import { jsonError } from "#app/web/api.server";
import { currentAdmin } from "#app/web/user-context.server";
import { handleFormUpload, handleTus } from "#app/routes/api/admin/booking-files.server";
import { isTusRequest } from "#app/web/file-uploads/tus.server";
import type { Route } from "./+types/bookings.files";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { z } from "#app/domain/zod";

const NOT_FOUND = "That booking does not exist.";

/**
 * POST /api/admin/bookings/{id}/files (docs/product.md "Session files"): with Tus-Resumable,
 * the creation of a resumable upload (Upload-Length, Upload-Metadata filename and filetype);
 * without it, the no-JavaScript form's multipart post of one file (field `file`). Both refuse
 * an unknown booking, one not yet recorded, a bad name or type, a file too large or one that
 * would not fit, before anything is stored. The body is streamed, never buffered: server/app.ts
 * lets this URL's bodies past the 1 MB limit of every other route.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = currentAdmin(context);
  const id = parseId(params.id);
  if (id === null) return jsonError(404, NOT_FOUND);
  return isTusRequest(request)
    ? handleTus(request, id, admin)
    : handleFormUpload(request, id, admin);
}

const tusHeaders = z.object({
  "Tus-Resumable": z.string().meta({ description: "1.0.0: the tus protocol (creation)" }),
  "Upload-Length": z.string().optional().meta({ description: "The file's size in bytes" }),
  "Upload-Metadata": z
    .string()
    .optional()
    .meta({ description: "filename and filetype, each base64 (tus)" }),
});

export const openapi: doc.ApiPaths = {
  "/api/admin/bookings/{id}/files": {
    post: {
      summary:
        "Uploads a session file: a tus creation (with Tus-Resumable), or a multipart form with the field `file`",
      requestParams: { path: doc.idPath, header: tusHeaders.partial() },
      requestBody: {
        content: {
          "multipart/form-data": {
            schema: z.object({ file: z.string().meta({ format: "binary" }) }),
          },
          "application/offset+octet-stream": {
            schema: z.string().meta({ format: "binary", description: "tus creation-with-upload" }),
          },
        },
      },
      responses: {
        201: {
          description:
            "tus: the upload was created (Location: its URL); form: the stored file, as `{ file }`",
          content: {
            "application/json": { schema: z.strictObject({ file: shape.sessionFileJson }) },
          },
        },
        303: {
          description: "A browser's form post: back to the booking's admin page with a toast",
        },
        400: doc.refused("A bad name, an empty file, a missing size, or a form without a file"),
        ...doc.ADMIN_GUARD,
        404: doc.refused(NOT_FOUND),
        422: doc.refused("The booking is not recorded yet (files come after the session)"),
        412: doc.refused("A tus request of another protocol version"),
        413: doc.refused("Over MAX_FILE_GB (tus) or MAX_FORM_UPLOAD_MB (the form)"),
        415: doc.refused("A content type outside audio, video, images, PDF, zip and text"),
        507: doc.refused("Not enough free space for the file"),
      },
    },
  },
};
