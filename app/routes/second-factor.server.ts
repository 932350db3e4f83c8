import { INVALID_TWO_FACTOR_CODE, TWO_FACTOR_FROZEN } from "#app/domain/two-factor";
import { env } from "#app/env.server";
import { hasTwoFactor } from "#app/models/two-factor.server";
import {
  giveBackAttempt,
  takeTwoFactorAttempt,
  tooManyAttemptsMessage,
} from "#app/web/rate-limit.server";
import { proveSignInCode } from "#app/workflows/sign-in-code.server";

/**
 * The second step of sign-in (docs/product.md "Accounts and sign-ins"), shared by the sign-in
 * page and POST /api/login: both call `secondFactor` right after the password was verified.
 */

export type SecondFactorOutcome =
  | { ok: true; secondFactor: boolean }
  | { ok: false; status: 401 | 429; message: string; retryAfter?: number };

/**
 * Whether `userId` (whose password was just verified) may be signed in with `code`: yes when
 * the account has no two-factor; otherwise the code must be the app's current one (once, and
 * not after TWO_FACTOR_FREEZE_AFTER wrong codes in a row) or an unused recovery code, within
 * TWO_FACTOR_CODE_LIMIT per account and per client address.
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
  const proven = await proveSignInCode(userId, code, {
    freezeAfter: env.TWO_FACTOR_FREEZE_AFTER,
    appUrl: env.APP_URL,
  });
  if (proven === "frozen") return { ok: false, status: 401, message: TWO_FACTOR_FROZEN };
  if (proven === "wrong") return { ok: false, status: 401, message: INVALID_TWO_FACTOR_CODE };
  // A right code gives the account its attempt back (the address's stays taken).
  await giveBackAttempt("twoFactor", `account:${userId}`);
  return { ok: true, secondFactor: true };
}
