import { createCookie } from "react-router";
import { env } from "#app/env.server";
import { noteRequestUser } from "#app/log.server";
import { isIdleTooLong, lastSeenIsStale } from "#app/domain/two-factor";
import {
  endSession,
  findLiveSession,
  startSession,
  touchSession,
} from "#app/models/session.server";

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

/**
 * The signed-in user's id, or null when there is no live session. A staff session ends after
 * STAFF_IDLE_MINUTES without a request (docs/product.md "Accounts"); the last request seen is
 * written at most about once a minute per session.
 */
export async function getSessionUserId(request: Request): Promise<number | null> {
  const id = await readSessionId(request);
  if (!id) return null;
  const now = Date.now();
  const session = findLiveSession(id, now);
  if (!session) return null;
  if (session.isAdmin && isIdleTooLong(session.lastSeenAt, now, env.STAFF_IDLE_MINUTES)) {
    endSession(id);
    return null;
  }
  if (lastSeenIsStale(session.lastSeenAt, now)) touchSession(id, now);
  return session.userId;
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
  const now = Date.now();
  const id = startSession(userId, now + MAX_AGE_MS, previous, now);
  noteRequestUser(userId);
  return sessionCookie.serialize(id);
}

/** Ends the session in the database (so a copied cookie dies too) and clears the cookie. */
export async function destroyUserSession(request: Request): Promise<string> {
  const id = await readSessionId(request);
  if (id) endSession(id);
  return sessionCookie.serialize("", { maxAge: 0, expires: new Date(0) });
}
