import { randomBytes } from "node:crypto";
import { createCookie } from "react-router";
import { env } from "#app/env.server";
import { createSignIn } from "#app/web/sign-in.server";

/**
 * Known devices (OWASP's "device cookie", docs/product.md "Accounts and sign-ins"): a browser
 * that completed a sign-in (password, and code if the account asks one) carries a signed
 * cookie naming the account and a random id of its own. A later login for that account from
 * it is throttled by that id's budget instead of the username's, so a stranger's wrong guesses
 * cannot lock the owner out. The cookie proves nothing by itself: the password is still asked.
 */
const KNOWN_DEVICE_DAYS = 365;

const deviceCookie = createCookie("__device", {
  httpOnly: true,
  sameSite: "lax",
  secure: env.NODE_ENV === "production",
  path: "/",
  secrets: [env.SESSION_SECRET],
  maxAge: KNOWN_DEVICE_DAYS * 24 * 60 * 60,
});

export type KnownDevice = { userId: number; id: string };

function isKnownDevice(value: unknown): value is KnownDevice {
  if (typeof value !== "object" || value === null) return false;
  const { userId, id } = value as Record<string, unknown>;
  return Number.isInteger(userId) && typeof id === "string" && /^[0-9a-f]{32}$/.test(id);
}

/** The request's device cookie, or null (none, or not one we signed). */
export async function knownDevice(request: Request): Promise<KnownDevice | null> {
  const value: unknown = await deviceCookie.parse(request.headers.get("Cookie"));
  return isKnownDevice(value) ? value : null;
}

/**
 * The Set-Cookie headers of a completed sign-in: the sign-in, and a fresh device cookie for the
 * account (a new id each time, so an old copy of the cookie does not keep the new budget).
 */
export async function signedInHeaders(
  request: Request,
  userId: number,
  secondFactor: boolean,
): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await createSignIn(request, userId, secondFactor));
  const device: KnownDevice = { userId, id: randomBytes(16).toString("hex") };
  headers.append("Set-Cookie", await deviceCookie.serialize(device));
  return headers;
}
