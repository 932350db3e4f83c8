import { adminApiGuard } from "#app/web/user-context.server";
import { allowByPattern } from "#app/routes/api/openapi.server";
import type { Route } from "./+types/layout";

/**
 * Every /api/admin/* request: the method (those its route's `openapi` lists), then the caller
 * (401 visitor, 403 customer).
 */
export const middleware: Route.MiddlewareFunction[] = [adminApiGuard(allowByPattern())];
