import type { MiddlewareFunction } from "react-router";
import type { z } from "zod";
import type { ApiPaths } from "#app/web/api-doc";
import { isWrite } from "#app/web/route-target.server";

/** JSON error bodies always carry `message` (docs/product.md "The JSON API"). */
export function jsonError(
  status: number,
  message: string,
  extra?: Record<string, unknown>,
  headers?: HeadersInit,
) {
  return Response.json({ message, ...extra }, { status, headers });
}

export function methodNotAllowed(allowed: string) {
  return Response.json(
    { message: "Method not allowed" },
    { status: 405, headers: { Allow: allowed } },
  );
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The methods an endpoint's `openapi` description lists, as an Allow header reads them. */
export function allowOf(paths: ApiPaths): string {
  const items = Object.values(paths);
  return METHODS.filter((method) =>
    items.some((item) => item[method.toLowerCase() as Lowercase<typeof method>]),
  ).join(", ");
}

/**
 * The 405 for a method outside `allow`, else null. React Router gives a loader every method
 * that is not a write (HEAD, OPTIONS): as GET, unless the endpoint names HEAD itself.
 */
export function methodRefusal(method: string, allow: string): Response | null {
  const allowed = allow.split(", ");
  const asked = method.toUpperCase();
  const head = asked === "HEAD" && allowed.includes("HEAD");
  const as = isWrite(asked) ? asked : head ? "HEAD" : "GET";
  return allowed.includes(as) ? null : methodNotAllowed(allow);
}

/** A route's middleware: only the methods in `allow` ("GET, POST") reach its handlers. */
export function methodsOnly(allow: string): MiddlewareFunction<Response> {
  return ({ request }, next) => methodRefusal(request.method, allow) ?? next();
}

/** An /api route's middleware: only the methods its `openapi` description lists. */
export function describedMethodsOnly(paths: ApiPaths): MiddlewareFunction<Response> {
  return methodsOnly(allowOf(paths));
}

/**
 * Reads a JSON body and validates it. Anything else (wrong content type, bad JSON, wrong
 * shape) is thrown as a 4xx Response with a message, so a handler never sees bad input.
 */
export async function readJson<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<z.infer<S>> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw jsonError(415, "Expected a JSON body (Content-Type: application/json)");
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw jsonError(400, "The request body is not valid JSON");
  }
  // Every body is an object of named fields: anything else is refused in our words here,
  // rather than with zod's "expected object" from the schema.
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw jsonError(400, "The request body must be a JSON object");
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.join(".") || "form";
      errors[key] = [...(errors[key] ?? []), issue.message];
    }
    throw jsonError(400, result.error.issues[0]?.message ?? "Invalid request", { errors });
  }
  return result.data;
}
