import { toBookingJson } from "#app/routes/api/json/booking";
import {
  type AdminBookingsCursor,
  adminBookingsAfter,
  listAdminBookings,
} from "#app/models/admin-bookings.server";
import { readListRequest } from "#app/models/pagination.server";
import { readBookingFilters } from "#app/models/booking-filters.server";
import { jsonError } from "#app/web/api.server";
import { jsonListResponse, pageResponse } from "#app/web/json-list.server";
import type { Route } from "./+types/bookings";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { z } from "#app/domain/zod";

/**
 * GET /api/admin/bookings (docs/product.md "The JSON API"): the bookings as an array of booking
 * JSON, with the Bookings tab's filters as query parameters (`date` yyyy-MM-dd, `status`,
 * `membership` all|members|non-members) and its order (a day earliest first, otherwise latest
 * first). Without `page` or `limit` the whole list, streamed; with them one page (`limit` rows,
 * 25 by default, at most 500) and, when another page exists, a `Link: <...?page=N+1>; rel="next"`
 * header. No total is counted.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const now = Date.now();
  const url = new URL(request.url);
  const list = readListRequest(url);
  if (list.kind === "refused") return jsonError(400, list.message);
  const filters = readBookingFilters(url);
  if (list.kind === "whole") {
    return jsonListResponse({
      next: (cursor: AdminBookingsCursor | null, limit) =>
        adminBookingsAfter(filters, now, cursor, limit),
      keyOf: (row) => ({ startsAt: row.startsAt, id: row.id }),
      toJson: toBookingJson,
    });
  }
  const page = listAdminBookings({ ...filters, page: list.page }, now, list.size);
  return pageResponse(request, { ...page, rows: page.rows.map(toBookingJson) });
}

export const openapi: doc.ApiPaths = {
  "/api/admin/bookings": {
    get: {
      summary:
        "The bookings with the Bookings tab's filters and order; the whole list, or a page with ?page=&limit= (Link rel=next)",
      requestParams: {
        query: z.object({
          date: z.string().optional().meta({ description: "yyyy-MM-dd" }),
          status: z.string().optional(),
          membership: z.enum(["all", "members", "non-members"]).optional(),
          ...doc.PAGING_QUERY,
        }),
      },
      responses: {
        200: doc.answers("The list, or one page of it", z.array(shape.bookingJson)),
        400: doc.refused("A page or limit out of range"),
        ...doc.ADMIN_GUARD,
      },
    },
  },
};
