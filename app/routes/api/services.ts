import { listServices, toServiceJson } from "../../models/service.server";
import { jsonError, methodNotAllowed } from "../../services/api.server";
import { requireApiUser } from "../../services/auth.server";
import type { Route } from "./+types/services";

/**
 * GET /api/services?activeOnly=true|false (spec section 7). The active add-ons are public (the
 * booking form lists them for visitors too); the full list, inactive ones included, is the
 * admin's Services tab.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const activeOnly = new URL(request.url).searchParams.get("activeOnly");
  if (activeOnly !== null && activeOnly !== "true" && activeOnly !== "false") {
    return jsonError(400, "activeOnly must be true or false");
  }
  if (activeOnly === "false") {
    const user = await requireApiUser(request);
    if (!user.isAdmin) return jsonError(403, "Only admins can see inactive services");
  }
  return Response.json(listServices({ activeOnly: activeOnly !== "false" }).map(toServiceJson));
}

/** Creating and editing services belongs to the admin workflow (a later change). */
export function action() {
  return methodNotAllowed("GET");
}
