import { randomBytes } from "node:crypto";
import { createCookie } from "react-router";
import { sessions } from "#db/schema";
import type { FactoryDb } from "#tests/factories/database";

type Session = typeof sessions.$inferSelect;

/** The cookie app/web/session.server.ts reads: only the session id, signed with the secret. */
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
 * The cookie's value for a session id, signed as the server signs it (react-router's cookie
 * with the server's SESSION_SECRET), for a browser context or a Cookie header.
 */
export async function sessionCookieValue(sessionId: string, secret: string): Promise<string> {
  const cookie = createCookie(SESSION_COOKIE_NAME, { secrets: [secret] });
  const header = await cookie.serialize(sessionId);
  const pair = header.split(";")[0] ?? "";
  return pair.slice(pair.indexOf("=") + 1);
}
