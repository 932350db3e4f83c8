import { redirect } from "react-router";
import { requireAdmin } from "#app/web/auth.server";
import type { Route } from "./+types/index";

/** /admin and /admin/dashboard open the Bookings tab (spec section 2), keeping any filters. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect(`/admin/bookings${new URL(request.url).search}`);
}
