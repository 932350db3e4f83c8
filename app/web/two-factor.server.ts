import { createCookie } from "react-router";
import { env } from "#app/env.server";
import { PENDING_LOGIN_MINUTES } from "#app/domain/two-factor";

/**
 * Between the password and the code, the sign-in page holds only this: a signed cookie naming
 * the account and until when it waits (decision 0080). It is not a sign-in: no page or API
 * reads it but the sign-in page's code step.
 */
const pendingCookie = createCookie("__2fa_pending", {
  httpOnly: true,
  sameSite: "lax",
  secure: env.NODE_ENV === "production",
  // "/", not "/auth": the page's data requests go to /auth.data, which "/auth" does not cover.
  path: "/",
  secrets: [env.SESSION_SECRET],
  maxAge: PENDING_LOGIN_MINUTES * 60,
});

type Pending = { userId: number; expiresAt: number };

function isPending(value: unknown): value is Pending {
  if (typeof value !== "object" || value === null) return false;
  const { userId, expiresAt } = value as Record<string, unknown>;
  return Number.isInteger(userId) && typeof expiresAt === "number";
}

/** The Set-Cookie header that starts waiting for `userId`'s code. */
export function startPendingLogin(userId: number, now = Date.now()): Promise<string> {
  return pendingCookie.serialize({ userId, expiresAt: now + PENDING_LOGIN_MINUTES * 60_000 });
}

/** The account waiting for its code, or null (none, forged, or timed out). */
export async function pendingLoginUserId(
  request: Request,
  now = Date.now(),
): Promise<number | null> {
  const value: unknown = await pendingCookie.parse(request.headers.get("Cookie"));
  return isPending(value) && value.expiresAt > now ? value.userId : null;
}

/** The Set-Cookie header that forgets the waiting sign-in. */
export function endPendingLogin(): Promise<string> {
  return pendingCookie.serialize("", { maxAge: 0, expires: new Date(0) });
}
