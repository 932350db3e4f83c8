import { type MiddlewareFunction, RouterContextProvider } from "react-router";
import { db } from "#app/db.server";
import { logError } from "#app/log.server";
import { securityMiddleware } from "#app/web/security.server";

// Prepared once: the probe checks the database answers, not how fast drizzle builds SQL.
const ping = db.$client.prepare("SELECT 1");

/** For Fly's health check: 200 when the database answers a query, 503 otherwise. */
export function livenessAnswer(): Response {
  try {
    ping.get();
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    logError("health check", error);
    return Response.json({ status: "unavailable" }, { status: 503 });
  }
}

/**
 * `GET /healthz` as React Router answers it (the route, then the security middleware's headers),
 * for server/app.ts to give without the router: a machine busy rendering still answers Fly.
 */
export async function livenessProbeAnswer(request: Request): Promise<Response> {
  const args: Parameters<MiddlewareFunction<Response>>[0] = {
    request,
    url: new URL(request.url),
    params: {},
    pattern: "/healthz",
    context: new RouterContextProvider(),
  };
  const secured = (await securityMiddleware(args, async () => livenessAnswer())) as Response;
  if (request.method !== "HEAD") return secured;
  return new Response(null, { status: secured.status, headers: secured.headers });
}
