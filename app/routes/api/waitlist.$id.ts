import { parseId } from "#app/domain/ids";
import { WAITLIST_MESSAGES } from "#app/domain/waitlist";
import { toWaitlistJson } from "#app/routes/api/json/waitlist";
import { jsonError, describedMethodsOnly } from "#app/web/api.server";
import { requireApiUser } from "#app/web/user-context.server";
import { removeWaitlistEntry } from "#app/workflows/waitlist.server";
import { Refusal } from "#app/domain/refusal";
import { jsonRefusal } from "#app/web/refusals.server";
import type { Route } from "./+types/waitlist.$id";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

/**
 * DELETE /api/waitlist/{id}: takes the caller's own open entry off the list (docs/product.md
 * "Waitlist"). Another customer's entry, or one no longer open, is reported as missing.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireApiUser(request, context);
  const id = parseId(params.id);
  if (id === null) return jsonError(404, WAITLIST_MESSAGES.notFound);
  try {
    return Response.json(toWaitlistJson(removeWaitlistEntry(user.id, id, Date.now())));
  } catch (error) {
    if (error instanceof Refusal) return jsonRefusal(error);
    throw error;
  }
}

export const openapi: doc.ApiPaths = {
  "/api/waitlist/{id}": {
    delete: {
      summary: "Takes the caller's own open waitlist entry off the list",
      ...doc.ON_ID,
      responses: {
        200: doc.answers("The entry, REMOVED", shape.waitlistEntryJson),
        401: doc.notSignedIn,
        404: doc.refused(WAITLIST_MESSAGES.notFound),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
