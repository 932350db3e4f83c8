import { describedMethodsOnly } from "#app/web/api.server";
import { requireApiUser } from "#app/web/user-context.server";
import type { Route } from "./+types/user";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

/** GET /api/user: the signed-in user, or 401 when signed out (docs/product.md "The JSON API"). */
export async function loader({ request, context }: Route.LoaderArgs) {
  return Response.json(await requireApiUser(request, context));
}

export const openapi: doc.ApiPaths = {
  "/api/user": {
    get: {
      summary: "The signed-in user",
      responses: {
        200: doc.answers("The user", shape.publicUserJson),
        401: doc.notSignedIn,
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
