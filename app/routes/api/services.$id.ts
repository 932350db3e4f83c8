import { writeTransaction } from "#app/db.server";
import { parseId } from "#app/domain/ids";
import { Refusal } from "#app/domain/refusal";
import { parseService, SERVICE_MESSAGES } from "#app/domain/services";
import { deleteService, updateService } from "#app/models/service.server";
import { toServiceJson } from "#app/routes/api/json/service";
import { jsonError, readJson, describedMethodsOnly } from "#app/web/api.server";
import { jsonRefusal } from "#app/web/refusals.server";
import { requireApiAdmin } from "#app/web/user-context.server";
import { serviceBody } from "#app/domain/services";
import type { Route } from "./+types/services.$id";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { z } from "#app/domain/zod";

const NOT_FOUND = SERVICE_MESSAGES.notFound;

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = serviceBody;

/**
 * PUT /api/services/{id} (the create body: the updated service) and DELETE (docs/product.md
 * "The JSON API"): {success: true} when deleted, {success: false} with a message when bookings used
 * it and it was deactivated instead.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  await requireApiAdmin(request, context);
  const id = parseId(params.id);
  if (id === null) return jsonError(404, NOT_FOUND);

  if (request.method === "DELETE") {
    try {
      const removal = writeTransaction((tx) => deleteService(tx, id));
      return Response.json(
        removal.removed === "deleted"
          ? { success: true, message: "Service deleted" }
          : {
              success: false,
              message: "Service is used in existing bookings, so it was deactivated instead",
            },
      );
    } catch (error) {
      if (error instanceof Refusal) return jsonRefusal(error);
      throw error;
    }
  }

  const body = await readJson(request, jsonBody);
  const parsed = parseService(body);
  if ("errors" in parsed) return jsonError(400, parsed.message, { errors: parsed.errors });
  const service = updateService(id, parsed.service, body.isActive);
  if (!service) return jsonError(404, NOT_FOUND);
  return Response.json(toServiceJson(service));
}

export const openapi: doc.ApiPaths = {
  "/api/services/{id}": {
    put: {
      summary: "Edits a service (admins)",
      ...doc.idAndBody(jsonBody),
      responses: {
        200: doc.answers("The updated service", shape.serviceJson),
        ...doc.BODY_REFUSALS,
        400: doc.refused(
          "A refused body; `errors` by field (the service checks give one message each)",
          {
            errors: shape.serviceFieldErrors.optional(),
          },
        ),
        ...doc.ADMIN_GUARD,
        404: doc.refused(NOT_FOUND),
      },
    },
    delete: {
      summary: "Deletes a service, or deactivates it when bookings used it (admins)",
      ...doc.ON_ID,
      responses: {
        200: doc.answers(
          "Deleted (`success: true`) or deactivated instead (`success: false`)",
          z.strictObject({ success: z.boolean(), message: z.string() }),
        ),
        ...doc.ADMIN_GUARD,
        404: doc.refused(NOT_FOUND),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
