import { bookingFields } from "#app/domain/booking-form";
import { z } from "#app/domain/zod";
import { hasConflict } from "#app/models/booking.server";
import { jsonError, describedMethodsOnly } from "#app/web/api.server";
import { env } from "#app/env.server";
import type { Route } from "./+types/bookings.check-conflicts";
import * as doc from "#app/web/api-doc";

const fields = bookingFields();
const conflictQuerySchema = z.object({
  recordingDate: fields.recordingDate,
  recordingTime: fields.recordingTime,
  hoursNeeded: fields.hoursNeeded,
});

/**
 * GET /api/bookings/check-conflicts?recordingDate&recordingTime&hoursNeeded: { hasConflict }.
 * Public (the booking form asks before creating); it reveals no names. Only an actual clash
 * counts: a start inside the 48 hours is refused by the create call with its own message.
 */
export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const query = conflictQuerySchema.safeParse({
    recordingDate: params.get("recordingDate") ?? undefined,
    recordingTime: params.get("recordingTime") ?? undefined,
    hoursNeeded: params.get("hoursNeeded") ?? undefined,
  });
  if (!query.success) {
    return jsonError(400, query.error.issues[0]?.message ?? "Invalid query");
  }
  const { recordingDate, recordingTime, hoursNeeded } = query.data;
  const conflict = hasConflict(
    { date: recordingDate, time: recordingTime, hours: hoursNeeded },
    Date.now(),
    env.BUFFER_MINUTES,
  );
  return Response.json({ hasConflict: conflict }, { headers: { "Cache-Control": "no-store" } });
}

export const openapi: doc.ApiPaths = {
  "/api/bookings/check-conflicts": {
    get: {
      summary: "Whether a session would clash with another booking or a blocked time",
      requestParams: {
        query: z.object({
          recordingDate: z.string(),
          recordingTime: z.string(),
          hoursNeeded: z.string(),
        }),
      },
      responses: {
        200: doc.answers("Whether it clashes", z.strictObject({ hasConflict: z.boolean() })),
        400: doc.refused("A field is missing or out of range"),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
