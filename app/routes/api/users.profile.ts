import { profileApiSchema } from "#app/domain/account";
import { parseId } from "#app/domain/ids";
import { toPublicUser, updateProfile } from "#app/models/user.server";
import { jsonError, readJson, describedMethodsOnly } from "#app/web/api.server";
import { requireApiUser } from "#app/web/user-context.server";
import type { Route } from "./+types/users.profile";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

/**
 * Any id but the caller's own is answered as missing, admins included: the API never says
 * whether an account exists (as with another customer's booking), and admins manage accounts
 * in the admin area, not by rewriting a customer's details.
 */
const NOT_FOUND = "User not found";

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = profileApiSchema;

/**
 * PUT /api/users/{id}/profile (docs/product.md "The JSON API"): replaces the caller's profile
 * fields and answers the updated user, in the shape of GET /api/user.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireApiUser(request, context);
  if (parseId(params.id) !== user.id) return jsonError(404, NOT_FOUND);
  const input = await readJson(request, jsonBody);
  const updated = updateProfile(user.id, input);
  if (!updated) return jsonError(404, NOT_FOUND);
  return Response.json(toPublicUser(updated));
}

export const openapi: doc.ApiPaths = {
  "/api/users/{id}/profile": {
    put: {
      summary: "Replaces the caller's profile fields (any other id answers 404)",
      ...doc.idAndBody(jsonBody),
      responses: {
        200: doc.answers("The updated user", shape.publicUserJson),
        ...doc.BODY_REFUSALS,
        401: doc.notSignedIn,
        404: doc.refused(NOT_FOUND),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
