import { parseId } from "#app/domain/ids";
import { supportUpdateSchema } from "#app/domain/support";
import { toSupportRequestJson } from "#app/routes/api/json/support-request";
import { jsonError, readJson } from "#app/web/api.server";
import { env } from "#app/env.server";
import { updateSupportRequest } from "#app/workflows/support.server";
import { Refusal } from "#app/domain/refusal";
import { jsonRefusal } from "#app/web/refusals.server";
import type { Route } from "./+types/tech-assistance.$id";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = supportUpdateSchema;

/**
 * PUT /api/admin/tech-assistance/{id} with { status, resolution } (docs/product.md "The JSON API"):
 * the updated request. The same model function as the Support tab's buttons, so the same rules: 400
 * for a status that is not one of the four or a RESOLVED without resolution details, 404 for an
 * unknown id, 422 for a move the workflow does not allow (from RESOLVED or CANCELLED, skipping
 * IN_PROGRESS, or a second admin repeating the first one's move).
 */
export async function action({ request, params }: Route.ActionArgs) {
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Request not found");
  const update = await readJson(request, jsonBody);
  try {
    return Response.json(
      toSupportRequestJson(updateSupportRequest(id, update, Date.now(), env.APP_URL)),
    );
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return jsonRefusal(error);
  }
}

export const openapi: doc.ApiPaths = {
  "/api/admin/tech-assistance/{id}": {
    put: {
      summary: "Moves a support request (and records its resolution)",
      ...doc.idAndBody(jsonBody),
      responses: {
        200: doc.answers("The updated request", shape.supportRequestJson),
        ...doc.BODY_REFUSALS,
        ...doc.ADMIN_GUARD,
        404: doc.refused("Request not found"),
        422: doc.refused("The workflow does not allow this move"),
      },
    },
  },
};
