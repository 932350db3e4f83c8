import { describedMethodsOnly } from "#app/web/api.server";
import {
  downloadResponse,
  requireDownloadableFile,
  requireFilesAccess,
} from "#app/routes/api/booking-files.server";
import type { Route } from "./+types/bookings.files.$fileId";
import * as doc from "#app/web/api-doc";
import { z } from "#app/domain/zod";
import { FILES_API_NOT_FOUND } from "#app/domain/session-files";

/**
 * GET /api/bookings/{id}/files/{fileId} (docs/product.md "Session files"): the file, as an
 * attachment with its clean name; Range for a resumed download. The owner downloads delivered
 * files, staff any; anyone else gets 404, asked again on every request.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { booking, staff } = await requireFilesAccess(request, context, params.id);
  const file = requireDownloadableFile(booking, params.fileId, staff, Date.now());
  return downloadResponse(request, file);
}

const bytes = { schema: z.string().meta({ format: "binary" }) };

export const openapi: doc.ApiPaths = {
  "/api/bookings/{id}/files/{fileId}": {
    get: {
      summary: "Downloads a session file (Range supported), or redirects to a signed URL",
      requestParams: {
        path: doc.idPath.extend({ fileId: z.string().meta({ description: "The file's id" }) }),
        header: z.object({
          Range: z.string().optional().meta({ description: "One byte range: bytes=start-end" }),
          "If-Range": z
            .string()
            .optional()
            .meta({ description: "The ETag the download began with" }),
        }),
      },
      responses: {
        200: { description: "The whole file, as an attachment", content: { "*/*": bytes } },
        206: { description: "The asked range (Content-Range)", content: { "*/*": bytes } },
        302: { description: "Object storage: a signed URL valid for a few minutes" },
        401: doc.notSignedIn,
        404: doc.refused(
          `${FILES_API_NOT_FOUND.booking} or ${FILES_API_NOT_FOUND.file} (also another customer's)`,
        ),
        416: doc.refused("The range is outside the file (Content-Range: bytes */size)"),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
