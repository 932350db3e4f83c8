import { listBookingFiles } from "#app/models/booking-file.server";
import { toBookingFileJson } from "#app/routes/api/json/session-file";
import { describedMethodsOnly } from "#app/web/api.server";
import { requireFilesAccess } from "#app/routes/api/booking-files.server";
import type { Route } from "./+types/bookings.files";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { z } from "#app/domain/zod";
import { FILES_API_NOT_FOUND } from "#app/domain/session-files";
import { db } from "#app/db.server";

/**
 * GET /api/bookings/{id}/files (docs/product.md "Session files"): the booking's files, oldest
 * first. Its owner sees the delivered ones; staff see all, delivered or not.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { booking, staff } = await requireFilesAccess(request, context, params.id);
  const now = Date.now();
  const files = listBookingFiles(db, booking.id, { deliveredOnly: !staff }).filter(
    (file) => file.expiresAt === null || file.expiresAt > now,
  );
  return Response.json(files.map(toBookingFileJson));
}

export const openapi: doc.ApiPaths = {
  "/api/bookings/{id}/files": {
    get: {
      summary: "The session's files: delivered ones for the owner, all for staff",
      ...doc.ON_ID,
      responses: {
        200: doc.answers("The files, oldest first", z.array(shape.sessionFileJson)),
        401: doc.notSignedIn,
        404: doc.refused(`${FILES_API_NOT_FOUND.booking} (also another customer's booking)`),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
