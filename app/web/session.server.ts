import { and, eq, gt, lt, sql } from "drizzle-orm";
import { createCookie } from "react-router";
import { sessions } from "#db/schema";
import { db, unlessBusy, writeTransaction } from "#app/db.server";
import { env } from "#app/env.server";
import { newSessionId } from "#app/models/session.server";

const MAX_AGE_MS = env.SESSION_MAX_AGE_DAYS * 24 * 60 * 60 * 1000;

/** The cookie holds only the session id; the sessions table says who and until when. */
export const sessionCookie = createCookie("__session", {
  httpOnly: true,
  sameSite: "lax",
  secure: env.NODE_ENV === "production",
  path: "/",
  secrets: [env.SESSION_SECRET],
  maxAge: MAX_AGE_MS / 1000,
});

async function readSessionId(request: Request): Promise<string | null> {
  const value: unknown = await sessionCookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

// Every signed-in request runs this: prepared once instead of rebuilt and re-prepared each time.
const liveSession = db
  .select({ userId: sessions.userId })
  .from(sessions)
  .where(
    and(eq(sessions.id, sql.placeholder("id")), gt(sessions.expiresAt, sql.placeholder("now"))),
  )
  .prepare();

/** The signed-in user's id, or null when there is no live session. */
export async function getSessionUserId(request: Request): Promise<number | null> {
  const id = await readSessionId(request);
  if (!id) return null;
  const row = liveSession.get({ id, now: Date.now() });
  return row?.userId ?? null;
}

/** The Set-Cookie header that hands the browser a session started elsewhere. */
export function sessionCookieFor(id: string): Promise<string> {
  return sessionCookie.serialize(id);
}

/**
 * Starts a fresh session (a new id on every login, so a planted id is useless) and
 * returns the Set-Cookie header. Any session the browser carried before is ended.
 */
export async function createUserSession(request: Request, userId: number): Promise<string> {
  const previous = await readSessionId(request);
  const id = newSessionId();
  const nowMs = Date.now();
  writeTransaction((tx) => {
    if (previous) tx.delete(sessions).where(eq(sessions.id, previous)).run();
    // Expired rows of anyone are swept here rather than by a timer.
    tx.delete(sessions).where(lt(sessions.expiresAt, nowMs)).run();
    tx.insert(sessions)
      .values({ id, userId, expiresAt: nowMs + MAX_AGE_MS })
      .run();
  });
  return sessionCookie.serialize(id);
}

/** Ends the session in the database (so a copied cookie dies too) and clears the cookie. */
export async function destroyUserSession(request: Request): Promise<string> {
  const id = await readSessionId(request);
  if (id) unlessBusy(() => db.delete(sessions).where(eq(sessions.id, id)).run());
  return sessionCookie.serialize("", { maxAge: 0, expires: new Date(0) });
}
