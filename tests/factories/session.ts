import { randomBytes } from "node:crypto";
import { sessions } from "#db/schema";
import type { FactoryDb } from "#tests/factories/database";

type Session = typeof sessions.$inferSelect;

/** The cookie app/web/session.server.ts reads: only the session id (decision 0092: unsigned). */
export const SESSION_COOKIE_NAME = "__session";

/** SESSION_MAX_AGE_DAYS's default. */
const DEFAULT_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

export type SessionInput = Partial<Session> & { userId: number };

/**
 * A signed-in session as a login leaves it (decision 0003: tests sign in by inserting the
 * row): a random 256-bit id, alive for the default 14 days.
 */
export function createSession(db: FactoryDb, input: SessionInput): Session {
  return db
    .insert(sessions)
    .values({
      id: randomBytes(32).toString("base64url"),
      expiresAt: Date.now() + DEFAULT_MAX_AGE_MS,
      ...input,
    })
    .returning()
    .get();
}

/**
 * The cookie's value for a session id, for a browser context or a Cookie header: the id itself
 * (decision 0092), as the server writes it.
 */
export function sessionCookieValue(sessionId: string): string {
  return sessionId;
}
