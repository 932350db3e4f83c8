import { writeTransaction } from "#app/db.server";
import { env } from "#app/env.server";
import { noteRequestUser } from "#app/log.server";
import { isIdleTooLong, lastSeenIsStale } from "#app/domain/two-factor";
import {
  endSignIn,
  findLiveSignIn,
  markSecondFactor,
  startSignIn,
  storedSignInId,
  touchSignIn,
} from "#app/models/sign-in.server";

const MAX_AGE_MS = env.SESSION_MAX_AGE_DAYS * 24 * 60 * 60 * 1000;

/** Not signed (decision 0092): the id is 256 random bits, so a forger would have to guess a live id. */
export const SIGN_IN_COOKIE_NAME = "__session";
const SIGN_IN_ID = /^[A-Za-z0-9_-]{43}$/;
const ATTRIBUTES = `Path=/; HttpOnly; SameSite=Lax${env.NODE_ENV === "production" ? "; Secure" : ""}`;

export function readSignInId(request: Request): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals === -1 || pair.slice(0, equals).trim() !== SIGN_IN_COOKIE_NAME) continue;
    const value = pair.slice(equals + 1).trim();
    // A cookie of the signed format before decision 0092, or anything else, is no sign-in.
    if (SIGN_IN_ID.test(value)) return storedSignInId(value);
  }
  return null;
}

function serializeSignInCookie(id: string, maxAgeSeconds: number): string {
  const expires = maxAgeSeconds > 0 ? "" : "; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
  return `${SIGN_IN_COOKIE_NAME}=${id}; Max-Age=${maxAgeSeconds}${expires}; ${ATTRIBUTES}`;
}

export type SignedIn = { userId: number; secondFactor: boolean };

/** docs/product.md "Accounts and sign-ins": a staff sign-in ends after STAFF_IDLE_MINUTES idle. */
export async function getSignedIn(request: Request): Promise<SignedIn | null> {
  const id = readSignInId(request);
  if (!id) return null;
  const now = Date.now();
  const signIn = findLiveSignIn(id, now);
  if (!signIn) return null;
  if (signIn.isAdmin && isIdleTooLong(signIn.lastSeenAt, now, env.STAFF_IDLE_MINUTES)) {
    endSignIn(id);
    return null;
  }
  if (lastSeenIsStale(signIn.lastSeenAt, now)) touchSignIn(id, now);
  return { userId: signIn.userId, secondFactor: signIn.secondFactor };
}

export function proveSecondFactor(request: Request): void {
  const id = readSignInId(request);
  if (id) markSecondFactor(id);
}

export async function signInCookieFor(cookieValue: string): Promise<string> {
  return serializeSignInCookie(cookieValue, MAX_AGE_MS / 1000);
}

/** A new id on every login, so a planted id is useless; the previous sign-in is ended. */
export async function createSignIn(
  request: Request,
  userId: number,
  secondFactor: boolean,
): Promise<string> {
  const previous = readSignInId(request);
  const now = Date.now();
  const cookieValue = writeTransaction((tx) =>
    startSignIn(tx, userId, now + MAX_AGE_MS, previous, now, secondFactor),
  );
  noteRequestUser(userId);
  return serializeSignInCookie(cookieValue, MAX_AGE_MS / 1000);
}

/** A copied cookie dies too. */
export async function destroySignIn(request: Request): Promise<string> {
  const id = readSignInId(request);
  if (id) endSignIn(id);
  return serializeSignInCookie("", 0);
}
