import { loginSchema } from "#app/domain/account";
import { requiredText, z } from "#app/domain/zod";

/** Two-factor sign-in (docs/product.md "Accounts and sign-ins"): TOTP codes and recovery codes. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** One step either side of now: a phone clock a little off. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
export const PENDING_LOGIN_MINUTES = 10;
export const LAST_SEEN_WRITE_MS = 60_000;

export const TWO_FACTOR_REQUIRED =
  "Enter the 6-digit code from your authenticator app, or one of your recovery codes.";
export const INVALID_TWO_FACTOR_CODE =
  "That code is not valid, or it was already used. Wait for the next code, or use a recovery code.";
export const INVALID_SETUP_CODE =
  "That code does not match. Enter the 6-digit code your authenticator app shows now.";
export const WRONG_PASSWORD_OR_CODE = "That password or code is not right.";
export const STAFF_TWO_FACTOR_REQUIRED =
  "Staff must prove a second factor first: turn on two-factor sign-in in Profile Settings, or sign in again with your code.";
export const STAFF_MUST_KEEP_TWO_FACTOR =
  "Staff accounts must keep two-factor sign-in on; it cannot be turned off.";
export const TWO_FACTOR_ALREADY_ON = "Two-factor sign-in is already on.";
export const TWO_FACTOR_ALREADY_OFF = "Two-factor sign-in is already off.";
export const PENDING_LOGIN_EXPIRED = "Your sign-in timed out. Please enter your password again.";
export const TWO_FACTOR_FROZEN =
  "Too many wrong codes: codes from your authenticator app no longer work for this account. Sign in with one of your recovery codes, then change your password.";

/**
 * The attempt is counted before it is checked, so codes tried at once all count; past
 * `freezeAfter` the app's codes are refused unchecked, and only a recovery code is checked.
 */
export function codeIsChecked(failuresWithThis: number, freezeAfter: number, code: string) {
  return !(looksLikeTotp(code) && failuresWithThis > freezeAfter);
}

/** On the first wrong code of a run and on the freezing one: never per guess. */
export function wrongCodeAlert(
  failuresWithThis: number,
  freezeAfter: number,
): "frozen" | "wrong-code" | null {
  if (failuresWithThis === freezeAfter) return "frozen";
  return failuresWithThis === 1 ? "wrong-code" : null;
}

export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
}

export function normalizeCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, "");
}

export function looksLikeTotp(code: string): boolean {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(normalizeCode(code));
}

/** To within LAST_SEEN_WRITE_MS, as the last request seen is written about once a minute. */
export function isIdleTooLong(lastSeenAt: number, now: number, idleMinutes: number): boolean {
  return now - lastSeenAt >= idleMinutes * 60_000;
}

export function lastSeenIsStale(lastSeenAt: number, now: number): boolean {
  return now - lastSeenAt >= LAST_SEEN_WRITE_MS;
}

const codeField = requiredText(TWO_FACTOR_REQUIRED).max(40, INVALID_TWO_FACTOR_CODE);

export const loginCodeSchema = z.object({ code: codeField });

export const apiLoginSchema = loginSchema.extend({ code: codeField.optional() });

export const confirmTwoFactorSchema = z.object({
  code: requiredText(INVALID_SETUP_CODE).regex(/^\s*\d{3}\s?\d{3}\s*$/, INVALID_SETUP_CODE),
});

export const disableTwoFactorSchema = z.object({
  proof: requiredText("Enter your password or a code.").max(200, WRONG_PASSWORD_OR_CODE),
});
