import { sql } from "drizzle-orm";
import { db } from "../db.server";
import { logError } from "../services/log.server";

/** For Fly's health check: 200 when the database answers a query, 503 otherwise. */
export function loader() {
  try {
    db.get(sql`SELECT 1`);
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    logError("health check", error);
    return Response.json({ status: "unavailable" }, { status: 503 });
  }
}
