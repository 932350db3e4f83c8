import { parseId } from "#app/domain/ids";
import { makeAdmin } from "#app/models/admin-users.server";
import { jsonError } from "#app/web/api.server";
import type { Route } from "./+types/users.make-admin";

/** PUT /api/admin/users/{id}/make-admin: the updated {id, username, isAdmin, isMember}. */
export async function action({ params }: Route.ActionArgs) {
  const id = parseId(params.id);
  const user = id === null ? undefined : makeAdmin(id);
  if (!user) return jsonError(404, "User not found");
  return Response.json(user);
}
