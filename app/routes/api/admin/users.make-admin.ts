import { parseId } from "#app/domain/ids";
import { makeAdmin } from "#app/models/admin-users.server";
import { jsonError } from "#app/web/api.server";
import type { Route } from "./+types/users.make-admin";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

/** PUT /api/admin/users/{id}/make-admin: the updated {id, username, isAdmin, isMember}. */
export async function action({ params }: Route.ActionArgs) {
  const id = parseId(params.id);
  const user = id === null ? undefined : makeAdmin(id);
  if (!user) return jsonError(404, "User not found");
  return Response.json(user);
}

export const openapi: doc.ApiPaths = {
  "/api/admin/users/{id}/make-admin": {
    put: {
      summary: "Makes an account an admin (one way)",
      ...doc.ON_ID,
      responses: {
        200: doc.answers("The updated account", shape.adminUserJson),
        ...doc.ADMIN_GUARD,
        404: doc.refused("User not found"),
      },
    },
  },
};
