import { createCookie } from "react-router";
import { env } from "#app/env.server";
import { INVALID_TWO_FACTOR_CODE, PENDING_LOGIN_MINUTES } from "#app/domain/two-factor";
import { hasPasskey } from "#app/models/passkey.server";
import { hasTwoFactor, spendSecondFactor } from "#app/models/two-factor.server";
import {
  giveBackAttempt,
  takeTwoFactorAttempt,
  tooManyAttemptsMessage,
} from "#app/web/rate-limit.server";

/**
 * The second step of sign-in (docs/product.md "Accounts"), shared by the sign-in page and
 * POST /api/login: both call `secondFactor` right after the password was verified.
 */

export type SecondFactorOutcome =
  | { ok: true; secondFactor: boolean }
  | { ok: false; status: 401 | 429; message: string; retryAfter?: number };

/**
 * Whether `userId` (whose password was just verified) may be signed in with `code`: yes when
 * the account has no two-factor; otherwise the code must be the app's current one (once) or an
 * unused recovery code, within TWO_FACTOR_CODE_LIMIT per account and per client address.
 * `code` undefined: the account's code was not asked for yet (no attempt is taken).
 * `secondFactor` in the answer: a code was proven, not only the password.
 */
export async function secondFactor(
  userId: number,
  code: string | undefined,
  clientAddress: string,
  missingMessage: string,
): Promise<SecondFactorOutcome> {
  if (!hasTwoFactor(userId)) return { ok: true, secondFactor: false };
  if (code === undefined) return { ok: false, status: 401, message: missingMessage };
  const wait = await takeTwoFactorAttempt(clientAddress, userId);
  if (wait !== null) {
    return { ok: false, status: 429, message: tooManyAttemptsMessage(wait), retryAfter: wait };
  }
  if (!(await spendSecondFactor(userId, code))) {
    return { ok: false, status: 401, message: INVALID_TWO_FACTOR_CODE };
  }
  // A right code gives the account its attempt back (the address's stays taken).
  await giveBackAttempt("twoFactor", `account:${userId}`);
  return { ok: true, secondFactor: true };
}

/**
 * Between the password and the code, the sign-in page holds only this: a signed cookie naming
 * the account and until when it waits (decision 0080). It is not a session: no page or API
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

/**
 * Whether the staff gate stops this admin: two-factor is required of staff and is off. A
 * passkey counts (docs/product.md "Accounts and sessions").
 */
export function staffNeedsTwoFactor(userId: number): boolean {
  return env.REQUIRE_STAFF_2FA && !hasTwoFactor(userId) && !hasPasskey(userId);
}
