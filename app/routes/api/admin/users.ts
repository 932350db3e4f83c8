import { MEMBERSHIP_FILTERS } from "#app/domain/membership";
import { listUsers } from "#app/models/admin-users.server";
import { jsonError } from "#app/web/api.server";
import { pageResponse } from "#app/models/pagination.server";
import { readPage } from "#app/models/pagination.server";
import type { Route } from "./+types/users";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/domain/api-shapes";
import { z } from "#app/domain/zod";

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

export const openapi: doc.ApiPaths = {
  "/api/admin/users": {
    get: {
      summary: "The accounts, newest first, 25 a page (Link rel=next)",
      requestParams: {
        query: z.object({
          membership: z.enum(["all", "members", "non-members"]).optional(),
          page: z.string().optional(),
        }),
      },
      responses: {
        200: doc.answers("One page of accounts", z.array(shape.adminUserJson)),
        400: doc.refused("membership must be all, members or non-members"),
        ...doc.ADMIN_GUARD,
      },
    },
  },
};
