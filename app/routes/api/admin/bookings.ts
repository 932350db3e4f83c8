import { toBookingJson } from "../../../models/booking.server";
import { listAdminBookings } from "../../../models/admin-bookings.server";
import { methodNotAllowed, jsonError } from "../../../services/api.server";
import { readBookingFilters } from "../../../services/admin/booking-filters.server";
import { requireApiUser } from "../../../services/auth.server";
import { expireHolds } from "../../../models/booking.server";
import type { Route } from "./+types/bookings";

/**
 * GET /api/admin/bookings (spec section 7): the bookings as an array of booking JSON, with
 * the Bookings tab's filters as query parameters (`date` yyyy-MM-dd, `status`, `membership`
 * all|members|non-members) and its order. Paged like the tab, 25 to a page with `page=N`
 * (1-based): when another page exists, a `Link: <...?page=N+1>; rel="next"` header points at
 * it (the body stays the plain array the spec's client reads). No total is counted.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireApiUser(request);
  if (!user.isAdmin) return jsonError(403, "Admins only");
  expireHolds(Date.now());
  const url = new URL(request.url);
  const filters = readBookingFilters(url);
  const page = listAdminBookings(filters);
  const headers = new Headers();
  if (page.hasNext) {
    const next = new URL(url);
    next.searchParams.set("page", String(page.page + 1));
    headers.set("Link", `<${next.pathname}${next.search}>; rel="next"`);
  }
  return Response.json(page.rows.map(toBookingJson), { headers });
}

export function action() {
  return methodNotAllowed("GET");
}
