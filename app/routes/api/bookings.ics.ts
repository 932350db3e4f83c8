import { parseId } from "#app/domain/ids";
import { getOwnBooking } from "#app/models/booking.server";
import { jsonError, describedMethodsOnly } from "#app/web/api.server";
import { requireApiUser } from "#app/web/user-context.server";
import {
  seriesCalendar,
  seriesCalendarFilename,
  sessionCalendar,
  sessionCalendarFilename,
} from "#app/emails/calendar.server";
import { seriesOfBooking } from "#app/models/order.server";
import { env } from "#app/env.server";
import type { Route } from "./+types/bookings.ics";
import * as doc from "#app/web/api-doc";

/**
 * GET /api/bookings/{id}/ics: Download Details as an iCalendar file (docs/product.md
 * "Cancel, refund, reschedule"). The caller's own booking only: another customer's answers
 * 404 like one that does not exist.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireApiUser(request, context);
  const id = parseId(params.id);
  const booking = id === null ? undefined : getOwnBooking(id, user.id);
  if (!booking) return jsonError(404, "Booking not found");
  // A series session offers the whole series, one event per session (docs/product.md
  // "Weekly series").
  const series = seriesOfBooking(booking);
  return new Response(
    series ? seriesCalendar(series.sessions, env.APP_URL) : sessionCalendar(booking, env.APP_URL),
    {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": `attachment; filename="${
          series ? seriesCalendarFilename(series.id) : sessionCalendarFilename(booking)
        }"`,
      },
    },
  );
}

export const openapi: doc.ApiPaths = {
  "/api/bookings/{id}/ics": {
    get: {
      summary:
        "The caller's session as an iCalendar file (Download Details); for a session of a weekly series, every session of the series, one event each",
      ...doc.ON_ID,
      responses: {
        200: {
          description: "The session as an event",
          content: { "text/calendar": { schema: { type: "string" } } },
        },
        401: doc.notSignedIn,
        404: doc.refused("Booking not found"),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
