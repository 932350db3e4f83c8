import { toBookingJson } from "#app/models/booking.server";
import { listAdminBookings } from "#app/models/admin-bookings.server";
import { pageResponse } from "#app/models/pagination.server";
import { readBookingFilters } from "#app/models/booking-filters.server";
import { expireHolds } from "#app/models/booking.server";
import type { Route } from "./+types/bookings";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/domain/api-shapes";
import { z } from "#app/domain/zod";

/**
 * GET /api/admin/bookings (docs/product.md "The JSON API"): the bookings as an array of booking
 * JSON, with the Bookings tab's filters as query parameters (`date` yyyy-MM-dd, `status`,
 * `membership` all|members|non-members) and its order. Paged like the tab, 25 to a page with
 * `page=N` (1-based): when another page exists, a `Link: <...?page=N+1>; rel="next"` header points
 * at it (the body stays the plain array the original client reads (docs/product.md
 * "The JSON API")). No total is counted.
 */
export async function loader({ request }: Route.LoaderArgs) {
  expireHolds(Date.now());
  const url = new URL(request.url);
  const filters = readBookingFilters(url);
  const page = listAdminBookings(filters);
  return pageResponse(request, { ...page, rows: page.rows.map(toBookingJson) });
}

export const openapi: doc.ApiPaths = {
  "/api/admin/bookings": {
    get: {
      summary: "The bookings with the Bookings tab's filters and order, 25 a page (Link rel=next)",
      requestParams: {
        query: z.object({
          date: z.string().optional().meta({ description: "yyyy-MM-dd" }),
          status: z.string().optional(),
          membership: z.enum(["all", "members", "non-members"]).optional(),
          page: z.string().optional().meta({ description: "1-based" }),
        }),
      },
      responses: {
        200: doc.answers("One page of bookings", z.array(shape.bookingJson)),
        ...doc.ADMIN_GUARD,
      },
    },
  },
};
