import { redirect } from "react-router";
import type { Route } from "./+types/index";

/**
 * /admin and /admin/dashboard open the Bookings tab (docs/product.md "Screens"), keeping any
 * filters.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return redirect(`/admin/bookings${new URL(request.url).search}`);
}
