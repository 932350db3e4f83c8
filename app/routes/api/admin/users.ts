import { MEMBERSHIP_FILTERS } from "#app/domain/membership";
import { listUsers, usersAfter } from "#app/models/admin-users.server";
import { jsonError } from "#app/web/api.server";
import { jsonListResponse, pageResponse } from "#app/web/json-list.server";
import { readListRequest } from "#app/models/pagination.server";
import type { Route } from "./+types/users";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { z } from "#app/domain/zod";

/**
 * GET /api/admin/users: [{id, username, isAdmin, isMember}], newest first as the Users tab
 * lists them (?membership=all|members|non-members). Without `page` or `limit` the whole list,
 * streamed; with them one page (`limit` rows, 25 by default, at most 500) and a Link rel="next"
 * header when more follow (docs/product.md "The JSON API").
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const asked = url.searchParams.get("membership") ?? "all";
  const filter = MEMBERSHIP_FILTERS.find((known) => known === asked);
  if (!filter) return jsonError(400, "membership must be all, members or non-members");
  const list = readListRequest(url);
  if (list.kind === "refused") return jsonError(400, list.message);
  if (list.kind === "whole") {
    return jsonListResponse({
      next: (afterId: number | null, limit) => usersAfter(filter, afterId, limit),
      keyOf: (row) => row.id,
      toJson: (row) => row,
    });
  }
  return pageResponse(request, listUsers({ filter, page: list.page, size: list.size }));
}

export const openapi: doc.ApiPaths = {
  "/api/admin/users": {
    get: {
      summary:
        "The accounts, newest first; the whole list, or a page with ?page=&limit= (Link rel=next)",
      requestParams: {
        query: z.object({
          membership: z.enum(["all", "members", "non-members"]).optional(),
          ...doc.PAGING_QUERY,
        }),
      },
      responses: {
        200: doc.answers("The list, or one page of it", z.array(shape.adminUserJson)),
        400: doc.refused(
          "A membership other than all, members or non-members, or a page or limit out of range",
        ),
        ...doc.ADMIN_GUARD,
      },
    },
  },
};
