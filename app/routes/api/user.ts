import { methodNotAllowed } from "#app/web/api.server";
import { requireApiUser } from "#app/web/user-context.server";
import type { Route } from "./+types/user";

/** GET /api/user: the signed-in user, or 401 when signed out (docs/product.md "The JSON API"). */
export async function loader({ request, context }: Route.LoaderArgs) {
  return Response.json(await requireApiUser(request, context));
}

export function action() {
  return methodNotAllowed("GET");
}
