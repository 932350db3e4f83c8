import { eq } from "drizzle-orm";
import { calendarFeeds } from "#db/schema";
import type { FactoryDb } from "#tests/factories/database";
import { openStored } from "#tests/factories/secrets";

/** The feed token the app stored for a user (after the dashboard showed it or a New link), opened. */
export function storedFeedToken(
  db: FactoryDb,
  userId: number,
  kind: "CUSTOMER" | "STUDIO" = "CUSTOMER",
): string | undefined {
  const sealed = db
    .select({ sealed: calendarFeeds.tokenSealed, kind: calendarFeeds.kind })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId))
    .all()
    .find((row) => row.kind === kind)?.sealed;
  return sealed === undefined ? undefined : openStored("feed-token", sealed);
}
