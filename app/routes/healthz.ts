import { db } from "#app/db.server";
import { methodNotAllowed } from "#app/web/api.server";
import { logError } from "#app/log.server";

// Prepared once: the probe checks the database answers, not how fast drizzle builds SQL.
const ping = db.$client.prepare("SELECT 1");

/** For Fly's health check: 200 when the database answers a query, 503 otherwise. */
export function loader() {
  try {
    ping.get();
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    logError("health check", error);
    return Response.json({ status: "unavailable" }, { status: 503 });
  }
}

export function action() {
  return methodNotAllowed("GET");
}
