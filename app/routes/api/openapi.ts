import { describedMethodsOnly } from "#app/web/api.server";
import { OWN_PATH, openApiDocument } from "#app/routes/api/openapi.server";
import type { Route } from "./+types/openapi";

/**
 * GET /api/openapi.json: the OpenAPI 3.1 description of every /api/* route (docs/product.md
 * "The JSON API"). Public and the same for everyone, so caches may keep it for an hour; a new
 * build is a new process, which rebuilds it. Its own description is in openapi.server.ts,
 * beside the document it describes.
 */
export function loader() {
  return Response.json(openApiDocument(), {
    headers: { "Cache-Control": "public, max-age=3600" },
  });
}

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(OWN_PATH)];
