import { BOOKING_STATUSES } from "#app/domain/booking-status";
import { parseId } from "#app/domain/ids";
import { z } from "#app/domain/zod";
import { confirmOwnFreeBooking, getOwnBooking } from "#app/models/booking.server";
import { toBookingJson } from "#app/routes/api/json/booking";
import { jsonError, readJson, describedMethodsOnly } from "#app/web/api.server";
import { isStaff, requireApiUser } from "#app/web/user-context.server";
import type { Route } from "./+types/bookings.status";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

const NOT_FOUND = "Booking not found";
const ONLY_FREE = "You can only confirm your own free booking";
const ADMIN_ELSEWHERE = "Use the admin area to change booking statuses";

const statusBodySchema = z.object({
  status: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toUpperCase() : value),
    z.enum(BOOKING_STATUSES, { error: "Please choose a valid status" }),
  ),
});

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = statusBodySchema;

/**
 * PATCH /api/bookings/{id}/status with { status }. The client uses it for one thing: confirming
 * a free booking (docs/product.md "States and transitions"). The server already creates $0 bookings
 * CONFIRMED, so a customer's confirmation of their own $0 booking answers it unchanged; every other
 * change is refused (docs/product.md "Payment"). Another customer's booking is reported as missing.
 * Admins change statuses in the admin area (their workflow keeps the booking history).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireApiUser(request, context);
  const id = parseId(params.id);
  if (id === null) return jsonError(404, NOT_FOUND);
  const { status } = await readJson(request, jsonBody);

  const own = getOwnBooking(id, user.id);
  if (own && status === "CONFIRMED") {
    const confirmed = confirmOwnFreeBooking(id, user.id);
    if (confirmed) return Response.json(toBookingJson(confirmed));
  }
  if (await isStaff(request, context)) return jsonError(403, ADMIN_ELSEWHERE);
  if (!own) return jsonError(404, NOT_FOUND);
  return jsonError(403, ONLY_FREE);
}

export const openapi: doc.ApiPaths = {
  "/api/bookings/{id}/status": {
    patch: {
      summary: "Confirms the caller's own free booking (the only change it allows)",
      ...doc.idAndBody(jsonBody),
      responses: {
        200: doc.answers("The booking, confirmed", shape.bookingJson),
        ...doc.BODY_REFUSALS,
        401: doc.notSignedIn,
        403: doc.refused(`${ONLY_FREE}; or, for an admin, ${ADMIN_ELSEWHERE}`),
        404: doc.refused(NOT_FOUND),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
