import { eq } from "drizzle-orm";
import { dataVersion } from "#db/schema";
import { db } from "#app/db.server";

const current = db
  .select({ version: dataVersion.version })
  .from(dataVersion)
  .where(eq(dataVersion.id, 1))
  .prepare();

/** Bumped by every write to a table a visitor's page reads, in that write's transaction (db/schema.ts). */
export function readDataVersion(): number {
  return current.get()?.version ?? 0;
}
