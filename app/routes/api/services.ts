import { createService, listServices } from "#app/models/service.server";
import { toServiceJson } from "#app/routes/api/json/service";
import { jsonError, readJson, describedMethodsOnly } from "#app/web/api.server";
import { serviceBody } from "#app/domain/services";
import { parseService } from "#app/domain/services";
import { requireApiAdmin } from "#app/web/user-context.server";
import type { Route } from "./+types/services";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { z } from "#app/domain/zod";

/**
 * GET /api/services?activeOnly=true|false (docs/product.md "The JSON API"). The active add-ons are
 * public (the booking form lists them for visitors too); the full list, inactive ones included, is
 * the admin's Services tab.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const activeOnly = new URL(request.url).searchParams.get("activeOnly");
  if (activeOnly !== null && activeOnly !== "true" && activeOnly !== "false") {
    return jsonError(400, "activeOnly must be true or false");
  }
  if (activeOnly === "false") {
    await requireApiAdmin(request, context);
  }
  return Response.json(listServices({ activeOnly: activeOnly !== "false" }).map(toServiceJson));
}

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = serviceBody;

/** POST /api/services with {name, description, price, duration, isActive}: admins only. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireApiAdmin(request, context);
  const body = await readJson(request, jsonBody);
  const parsed = parseService(body);
  if ("errors" in parsed) return jsonError(400, parsed.message, { errors: parsed.errors });
  const service = createService(parsed.service, body.isActive ?? true);
  return Response.json(toServiceJson(service), { status: 201 });
}

export const openapi: doc.ApiPaths = {
  "/api/services": {
    get: {
      summary: "The add-ons: active ones for everyone, all of them for admins (`activeOnly=false`)",
      requestParams: {
        query: z.object({ activeOnly: z.enum(["true", "false"]).optional() }),
      },
      responses: {
        200: doc.answers("The services", z.array(shape.serviceJson)),
        400: doc.refused("activeOnly must be true or false"),
        401: doc.refused("`activeOnly=false` from a visitor (`Not authenticated`)"),
        403: doc.refused("`activeOnly=false` from a customer, or from staff held back (as `POST`)"),
      },
    },
    post: {
      summary: "Adds a service (admins)",
      ...doc.body(jsonBody),
      responses: {
        201: doc.answers("The new service", shape.serviceJson),
        ...doc.BODY_REFUSALS,
        400: doc.refused(
          "A refused body; `errors` by field (the service checks give one message each)",
          {
            errors: shape.serviceFieldErrors.optional(),
          },
        ),
        ...doc.ADMIN_GUARD,
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
