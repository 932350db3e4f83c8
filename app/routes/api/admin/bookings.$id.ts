import { BOOKING_STATUSES } from "#app/domain/booking-status";
import { parseId } from "#app/domain/ids";
import { parseStatus } from "#app/domain/admin-workflow";
import { z } from "#app/domain/zod";
import { changeBookingStatus } from "#app/workflows/change-booking-status.server";
import { Refusal } from "#app/domain/refusal";
import { jsonRefusal } from "#app/web/refusals.server";
import { toBookingJson } from "#app/routes/api/json/booking";
import { jsonError, readJson } from "#app/web/api.server";
import { PaymentServiceError } from "#app/workflows/payment-provider.server";
import { currentAdmin } from "#app/web/user-context.server";
import type { Route } from "./+types/bookings.$id";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

const NOT_FOUND = "Booking not found";

const statusBodySchema = z.object({
  status: z
    .unknown()
    .transform((value) => parseStatus(value))
    .refine((status) => status !== null, { error: "Please choose a valid status" })
    // What it accepts, for /api/openapi.json (the schema itself takes any value and refuses it).
    .meta({ override: { type: "string", enum: [...BOOKING_STATUSES], description: "Any case" } }),
  note: z
    .string({ error: "note must be text" })
    .trim()
    .max(500, "Please keep the note under 500 characters")
    .nullish(),
});

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = statusBodySchema;

/**
 * PUT /api/admin/bookings/{id} with { status, note? } (docs/product.md "The JSON API"): the same
 * rule and model as the tabs' buttons. 400 a bad status, 404 an unknown booking, 422 a change the
 * workflow refuses (with its reason in `message`), 502 when a refund could not be made. Answers the
 * updated booking.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = currentAdmin(context);
  const id = parseId(params.id);
  if (id === null) return jsonError(404, NOT_FOUND);
  const body = await readJson(request, jsonBody);
  if (!body.status) return jsonError(400, "Please choose a valid status");
  try {
    const booking = await changeBookingStatus(id, body.status, user, body.note || null);
    return Response.json(toBookingJson(booking));
  } catch (error) {
    if (error instanceof Refusal) return jsonRefusal(error);
    if (error instanceof PaymentServiceError) return jsonError(502, error.message);
    throw error;
  }
}

export const openapi: doc.ApiPaths = {
  "/api/admin/bookings/{id}": {
    put: {
      summary: "Changes a booking's status along the workflow (the tabs' buttons)",
      ...doc.idAndBody(jsonBody),
      responses: {
        200: doc.answers("The updated booking", shape.bookingJson),
        ...doc.BODY_REFUSALS,
        ...doc.ADMIN_GUARD,
        404: doc.refused(NOT_FOUND),
        422: doc.refused("The workflow refuses this change (the reason in `message`)"),
        502: doc.refused("The refund could not be made"),
      },
    },
  },
};
