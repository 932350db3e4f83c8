import { parseId } from "#app/domain/ids";
import { makeAdmin } from "#app/models/admin-users.server";
import { jsonError, methodNotAllowed } from "#app/web/api.server";
import { requireApiAdmin } from "#app/web/auth.server";
import type { Route } from "./+types/users.make-admin";

export function loader() {
  return methodNotAllowed("PUT");
}

/** PUT /api/admin/users/{id}/make-admin: the updated {id, username, isAdmin, isMember}. */
export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  await requireApiAdmin(request);
  const id = parseId(params.id);
  const user = id === null ? undefined : makeAdmin(id);
  if (!user) return jsonError(404, "User not found");
  return Response.json(user);
}
