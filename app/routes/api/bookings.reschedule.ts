import { parseId } from "#app/domain/ids";
import { rescheduleSchema } from "#app/domain/booking-form";
import { toBookingJson } from "#app/routes/api/json/booking";
import { rescheduleOwnBooking } from "#app/workflows/reschedule.server";
import { Refusal } from "#app/domain/refusal";
import { jsonRefusal } from "#app/web/refusals.server";
import { jsonError, readJson, describedMethodsOnly } from "#app/web/api.server";
import { takeBookingChange, tooManyBookingChangesMessage } from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { requireApiUser } from "#app/web/user-context.server";
import type { Route } from "./+types/bookings.reschedule";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

const NOT_FOUND = "Booking not found";

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = rescheduleSchema;

/**
 * POST /api/bookings/{id}/reschedule with { recordingDate, recordingTime }: moves the caller's
 * own paid or confirmed session, at least 24 hours ahead, to a free slot of the same length.
 * A taken slot or a booking that cannot move answers 422; another's booking 404. Limited with
 * bookings, per account and per client address (BOOKING_RATE_LIMIT per hour; 429 past it).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireApiUser(request, context);
  const id = parseId(params.id);
  if (id === null) return jsonError(404, NOT_FOUND);
  const now = Date.now();
  const slot = await readJson(request, jsonBody(now));
  const retryAfter = await takeBookingChange(context.get(clientAddressContext), user.id);
  if (retryAfter !== null) {
    return jsonError(429, tooManyBookingChangesMessage(retryAfter), undefined, {
      "Retry-After": String(retryAfter),
    });
  }
  try {
    const moved = rescheduleOwnBooking({ bookingId: id, userId: user.id, ...slot }, now);
    return Response.json(toBookingJson(moved));
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return jsonRefusal(error);
  }
}

export const openapi: doc.ApiPaths = {
  "/api/bookings/{id}/reschedule": {
    post: {
      summary: "Moves the caller's paid or confirmed session to a free slot of the same length",
      ...doc.idAndBody(jsonBody(Date.now())),
      responses: {
        200: doc.answers("The moved booking", shape.bookingJson),
        ...doc.BODY_REFUSALS,
        401: doc.notSignedIn,
        404: doc.refused(NOT_FOUND),
        422: doc.refused("The slot is taken or the booking cannot move"),
        429: doc.tooMany("Too many bookings and moves this hour"),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
