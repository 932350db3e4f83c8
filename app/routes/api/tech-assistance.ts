import { supportRequestSchema } from "#app/domain/support";
import { listOwnSupportRequests } from "#app/models/support.server";
import { toSupportRequestJson } from "#app/routes/api/json/support-request";
import { readJson, describedMethodsOnly } from "#app/web/api.server";
import { requireApiUser } from "#app/web/user-context.server";
import { createSupportRequest } from "#app/workflows/support.server";
import { Refusal } from "#app/domain/refusal";
import { jsonRefusal } from "#app/web/refusals.server";
import type { Route } from "./+types/tech-assistance";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { z } from "#app/domain/zod";

/** GET /api/tech-assistance: the caller's own support requests, newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireApiUser(request, context);
  const { requests } = listOwnSupportRequests(user.id);
  return Response.json(requests.map(toSupportRequestJson));
}

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = supportRequestSchema;

/**
 * POST /api/tech-assistance: files a request with the 'Get help' form's fields. The status,
 * owner and resolution are the server's: sent in the body, they are dropped by the schema.
 * A bookingId that is not one of the caller's bookings (someone else's, or none at all) is
 * bad input, 400 with the field named: the endpoint exists, the body is wrong, and answering
 * both cases alike reveals nothing about other customers' bookings.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireApiUser(request, context);
  const input = await readJson(request, jsonBody);
  try {
    const created = createSupportRequest(user.id, input, Date.now());
    return Response.json(toSupportRequestJson(created), { status: 201 });
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return jsonRefusal(error, { errors: { bookingId: [error.message] } });
  }
}

export const openapi: doc.ApiPaths = {
  "/api/tech-assistance": {
    get: {
      summary: "The caller's own support requests, newest first",
      responses: {
        200: doc.answers("The requests", z.array(shape.supportRequestJson)),
        401: doc.notSignedIn,
      },
    },
    post: {
      summary: "Files a support request ('Get help')",
      ...doc.body(jsonBody),
      responses: {
        201: doc.answers("The new request", shape.supportRequestJson),
        ...doc.BODY_REFUSALS,
        401: doc.notSignedIn,
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
