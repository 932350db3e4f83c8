import { createHash, randomBytes } from "node:crypto";
import { sessions } from "#db/schema";
import type { FactoryDb } from "#tests/factories/database";

type Session = typeof sessions.$inferSelect;

/** The cookie app/web/session.server.ts reads: only the session id (decision 0092: unsigned). */
export const SESSION_COOKIE_NAME = "__session";

/** SESSION_MAX_AGE_DAYS's default. */
const DEFAULT_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

export type SessionInput = Partial<Session> & { userId: number };

/**
 * A signed-in session as a login leaves it (decision 0017: tests sign in by inserting the
 * row): a random 256-bit id, alive for the default 14 days. The row holds the SHA-256 of the
 * id, as the site stores it; the session returned carries the id itself, the cookie's value.
 */
export function createSession(db: FactoryDb, input: SessionInput): Session {
  const cookie = randomBytes(32).toString("base64url");
  const row = db
    .insert(sessions)
    .values({
      expiresAt: Date.now() + DEFAULT_MAX_AGE_MS,
      ...input,
      id: storedSessionId(input.id ?? cookie),
    })
    .returning()
    .get();
  return { ...row, id: input.id ?? cookie };
}

/** What the sessions table holds for a cookie's session id: its SHA-256 in hex. */
export function storedSessionId(cookieValue: string): string {
  return createHash("sha256").update(cookieValue).digest("hex");
}

/**
 * The cookie's value for a session id, for a browser context or a Cookie header: the id itself
 * (decision 0092), as the server writes it.
 */
export function sessionCookieValue(sessionId: string): string {
  return sessionId;
}
