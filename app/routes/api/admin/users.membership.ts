import { parseId } from "#app/domain/ids";
import { z } from "#app/domain/zod";
import { setMembership } from "#app/models/admin-users.server";
import { jsonError, readJson } from "#app/web/api.server";
import type { Route } from "./+types/users.membership";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

const membershipBody = z.object({
  isMember: z.boolean({ error: "isMember must be true or false" }),
});

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = membershipBody;

/** PUT /api/admin/users/{id}/membership with {isMember}: the updated user. */
export async function action({ request, params }: Route.ActionArgs) {
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "User not found");
  const { isMember } = await readJson(request, jsonBody);
  const user = setMembership(id, isMember);
  if (!user) return jsonError(404, "User not found");
  return Response.json(user);
}

export const openapi: doc.ApiPaths = {
  "/api/admin/users/{id}/membership": {
    put: {
      summary: "Sets or removes an account's membership",
      ...doc.idAndBody(jsonBody),
      responses: {
        200: doc.answers("The updated account", shape.adminUserJson),
        ...doc.BODY_REFUSALS,
        ...doc.ADMIN_GUARD,
        404: doc.refused("User not found"),
      },
    },
  },
};
