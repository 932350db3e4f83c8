import type { z } from "zod";

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
