import { parseId } from "#app/domain/ids";
import { z } from "#app/domain/zod";
import { setServiceActive } from "#app/models/service.server";
import { toServiceJson } from "#app/routes/api/json/service";
import { jsonError, readJson, describedMethodsOnly } from "#app/web/api.server";
import { requireApiAdmin } from "#app/web/user-context.server";
import type { Route } from "./+types/services.toggle-status";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

const toggleBody = z.object({
  isActive: z.boolean({ error: "isActive must be true or false" }),
});

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = toggleBody;

/** PATCH /api/services/{id}/toggle-status with {isActive}: the updated service. */
export async function action({ request, params, context }: Route.ActionArgs) {
  await requireApiAdmin(request, context);
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Service not found");
  const { isActive } = await readJson(request, jsonBody);
  const service = setServiceActive(id, isActive);
  if (!service) return jsonError(404, "Service not found");
  return Response.json(toServiceJson(service));
}

export const openapi: doc.ApiPaths = {
  "/api/services/{id}/toggle-status": {
    patch: {
      summary: "Activates or deactivates a service (admins)",
      ...doc.idAndBody(jsonBody),
      responses: {
        200: doc.answers("The updated service", shape.serviceJson),
        ...doc.BODY_REFUSALS,
        ...doc.ADMIN_GUARD,
        404: doc.refused("Service not found"),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
