import { z } from "#app/domain/zod";
import { BOOKING_LIMITS, earliestBookableDate } from "#app/domain/availability";
import { quoteQuerySchema } from "#app/domain/booking-form";
import { getAvailability } from "#app/models/booking.server";
import { jsonError, describedMethodsOnly } from "#app/web/api.server";
import { storeAnswerForEveryone } from "#app/web/shared-pages.server";
import { env } from "#app/env.server";
import type { Route } from "./+types/availability";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

/**
 * GET /api/availability?date=yyyy-MM-dd&hours=2..8: every hourly start of that studio day for a
 * session of that length, free or not and why (docs/product.md "Availability and holds").
 * Public: it says when the studio is busy, never who booked it. Never cached by a browser; the
 * answer, the same whoever asks, is stored while nothing it reads changes (web/shared-pages.server.ts).
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const query = quoteQuerySchema.safeParse({
    date: params.get("date") ?? "",
    hours: params.get("hours") ?? String(BOOKING_LIMITS.minHours),
  });
  if (!query.success) {
    return jsonError(400, query.error.issues[0]?.message ?? "Invalid query");
  }
  const { date, hours } = query.data;
  storeAnswerForEveryone(request, context, `?date=${date}&hours=${hours}`);
  const now = Date.now();
  return Response.json(
    {
      date,
      hours,
      earliestDate: earliestBookableDate(now),
      times: getAvailability(date, hours, now, env.BUFFER_MINUTES),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const openapi: doc.ApiPaths = {
  "/api/availability": {
    get: {
      summary: "Every start time of a studio day for a session of that length, free or not",
      requestParams: {
        query: z.object({
          date: z.string().meta({ description: "yyyy-MM-dd" }),
          hours: z.string().optional().meta({ description: "2 to 8 (default 2)" }),
        }),
      },
      responses: {
        200: doc.answers("The day's start times", shape.availabilityJson),
        400: doc.refused("A date or a length out of range"),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
