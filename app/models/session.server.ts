import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { sessions } from "#db/schema";
import type { Tx } from "#app/db.server";

/** A session id: 256 random bits, the only thing the cookie holds. */
export function newSessionId(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Ends every session of the user and starts one fresh one, lasting until `expiresAt`, inside
 * the caller's transaction (a password change): a stolen cookie dies with the old password,
 * the changer stays signed in. Returns the fresh session's id.
 */
export function restartUserSessions(tx: Tx, userId: number, expiresAt: number): string {
  const id = newSessionId();
  tx.delete(sessions).where(eq(sessions.userId, userId)).run();
  tx.insert(sessions).values({ id, userId, expiresAt }).run();
  return id;
}
