import { z } from "#app/domain/zod";
import { seriesPreviewQuerySchema } from "#app/domain/series-preview";
import { jsonError, describedMethodsOnly } from "#app/web/api.server";
import { seriesPreview } from "#app/workflows/book-series.server";
import type { Route } from "./+types/availability.series";
import * as doc from "#app/web/api-doc";

/**
 * GET /api/availability/series?date&time&hours&every&count: every session of a weekly series,
 * free or not, and for each one that is not, the nearest free start times of its day
 * (docs/product.md "Weekly series"). The booking form fetches it as the fields change; without
 * JavaScript its "Check dates" shows the same. Public, like /api/availability: it says when the
 * studio is busy, never who booked it. Never cached.
 */
export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const query = seriesPreviewQuerySchema.safeParse({
    date: params.get("date") ?? "",
    time: params.get("time") ?? "",
    hours: params.get("hours") ?? "",
    every: params.get("every") ?? "",
    count: params.get("count") ?? "",
  });
  if (!query.success) return jsonError(400, query.error.issues[0]?.message ?? "Invalid query");
  return Response.json(seriesPreview(query.data, Date.now()), {
    headers: { "Cache-Control": "no-store" },
  });
}

const occurrence = z.strictObject({
  recordingDate: z.string(),
  problem: z.enum(["taken", "too-soon", "skipped", "too-far"]).nullable(),
  alternatives: z.array(z.string()).meta({ description: "Up to 3 nearest free start times" }),
});

export const openapi: doc.ApiPaths = {
  "/api/availability/series": {
    get: {
      summary: "Every session of a weekly series, free or not, with the nearest free times",
      requestParams: {
        query: z.object({
          date: z.string().meta({ description: "The first session's date, yyyy-MM-dd" }),
          time: z.string().meta({ description: "HH:00 studio time" }),
          hours: z.string().meta({ description: "2 to 8" }),
          every: z.enum(["week", "2weeks"]),
          count: z.string().meta({ description: "2 to 12 sessions" }),
        }),
      },
      responses: {
        200: doc.answers(
          "The series' sessions",
          z.strictObject({
            date: z.string(),
            time: z.string(),
            hours: z.number().int(),
            every: z.enum(["week", "2weeks"]),
            count: z.number().int(),
            occurrences: z.array(occurrence),
          }),
        ),
        400: doc.refused("A missing or out-of-range field"),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
