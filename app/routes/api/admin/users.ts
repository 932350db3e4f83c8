import { MEMBERSHIP_FILTERS } from "#app/domain/membership";
import { listUsers } from "#app/models/admin-users.server";
import { jsonError } from "#app/web/api.server";
import { pageResponse } from "#app/models/pagination.server";
import { readPage } from "#app/models/pagination.server";
import type { Route } from "./+types/users";

/**
 * GET /api/admin/users: [{id, username, isAdmin, isMember}], newest first, one page of the
 * Users tab (?page=N, ?membership=all|members|non-members); a Link rel="next" header says
 * that more follow, so the body stays the list of docs/product.md "The JSON API".
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const asked = url.searchParams.get("membership") ?? "all";
  const filter = MEMBERSHIP_FILTERS.find((known) => known === asked);
  if (!filter) return jsonError(400, "membership must be all, members or non-members");
  return pageResponse(request, listUsers({ filter, page: readPage(url) }));
}
