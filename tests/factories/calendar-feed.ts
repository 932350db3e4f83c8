import { eq } from "drizzle-orm";
import { calendarFeeds } from "#db/schema";
import type { FactoryDb } from "#tests/factories/database";

/** The feed token the app stored for a user (after the dashboard showed it or a New link). */
export function storedFeedToken(
  db: FactoryDb,
  userId: number,
  kind: "CUSTOMER" | "STUDIO" = "CUSTOMER",
): string | undefined {
  return db
    .select({ token: calendarFeeds.token, kind: calendarFeeds.kind })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId))
    .all()
    .find((row) => row.kind === kind)?.token;
}
