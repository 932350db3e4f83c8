import { writeTransaction } from "#app/db.server";
import { env } from "#app/env.server";
import { noteRequestUser } from "#app/log.server";
import { isIdleTooLong, lastSeenIsStale } from "#app/domain/two-factor";
import {
  endSession,
  findLiveSession,
  markSecondFactor,
  startSession,
  storedSessionId,
  touchSession,
} from "#app/models/session.server";

const MAX_AGE_MS = env.SESSION_MAX_AGE_DAYS * 24 * 60 * 60 * 1000;

/**
 * The cookie holds only the session id; the sessions table says who and until when. The id is
 * 256 random bits (models/session.server.ts), so it is not signed (decision 0092): a forger
 * would have to guess a live id, and a signature check was a WebCrypto call on every request.
 */
export const SESSION_COOKIE_NAME = "__session";
/** A cookie value as models/session.server.ts makes it: 32 bytes in base64url. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
const ATTRIBUTES = `Path=/; HttpOnly; SameSite=Lax${env.NODE_ENV === "production" ? "; Secure" : ""}`;

/**
 * The request's session as the sessions table knows it (the hash of the cookie's value), or
 * null when it carries none.
 */
export function readSessionId(request: Request): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals === -1 || pair.slice(0, equals).trim() !== SESSION_COOKIE_NAME) continue;
    const value = pair.slice(equals + 1).trim();
    // A cookie of the signed format before decision 0092, or anything else, is no session.
    if (SESSION_ID.test(value)) return storedSessionId(value);
  }
  return null;
}

function serializeSessionCookie(id: string, maxAgeSeconds: number): string {
  const expires = maxAgeSeconds > 0 ? "" : "; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
  return `${SESSION_COOKIE_NAME}=${id}; Max-Age=${maxAgeSeconds}${expires}; ${ATTRIBUTES}`;
}

/** Who a live session belongs to, and whether its sign-in proved a second factor. */
export type SignedIn = { userId: number; secondFactor: boolean };

/**
 * The request's live session, or null. A staff session ends after STAFF_IDLE_MINUTES without
 * a request (docs/product.md "Accounts"); the last request seen is written at most about once
 * a minute per session.
 */
export async function getSignedIn(request: Request): Promise<SignedIn | null> {
  const id = readSessionId(request);
  if (!id) return null;
  const now = Date.now();
  const session = findLiveSession(id, now);
  if (!session) return null;
  if (session.isAdmin && isIdleTooLong(session.lastSeenAt, now, env.STAFF_IDLE_MINUTES)) {
    endSession(id);
    return null;
  }
  if (lastSeenIsStale(session.lastSeenAt, now)) touchSession(id, now);
  return { userId: session.userId, secondFactor: session.secondFactor };
}

/** The request's session now counts as having proven a second factor (see `markSecondFactor`). */
export function proveSecondFactor(request: Request): void {
  const id = readSessionId(request);
  if (id) markSecondFactor(id);
}

/** The Set-Cookie header that hands the browser a session started elsewhere (its cookie value). */
export async function sessionCookieFor(cookieValue: string): Promise<string> {
  return serializeSessionCookie(cookieValue, MAX_AGE_MS / 1000);
}

/**
 * Starts a fresh session (a new id on every login, so a planted id is useless) and
 * returns the Set-Cookie header. Any session the browser carried before is ended.
 * `secondFactor`: the sign-in proved more than the password (a code, or a passkey).
 */
export async function createUserSession(
  request: Request,
  userId: number,
  secondFactor: boolean,
): Promise<string> {
  const previous = readSessionId(request);
  const now = Date.now();
  const cookieValue = writeTransaction((tx) =>
    startSession(tx, userId, now + MAX_AGE_MS, previous, now, secondFactor),
  );
  noteRequestUser(userId);
  return serializeSessionCookie(cookieValue, MAX_AGE_MS / 1000);
}

/** Ends the session in the database (so a copied cookie dies too) and clears the cookie. */
export async function destroyUserSession(request: Request): Promise<string> {
  const id = readSessionId(request);
  if (id) endSession(id);
  return serializeSessionCookie("", 0);
}
