import { toBookingJson } from "#app/models/booking.server";
import { listAdminBookings } from "#app/models/admin-bookings.server";
import { pageResponse } from "#app/models/pagination.server";
import { readBookingFilters } from "#app/models/booking-filters.server";
import { expireHolds } from "#app/models/booking.server";
import type { Route } from "./+types/bookings";

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
