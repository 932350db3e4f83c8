import { loginSchema } from "#app/domain/account";
import { requiredText, z } from "#app/domain/zod";

/**
 * Two-factor sign-in (docs/product.md "Accounts and sessions"): the rules and words shared by the
 * sign-in page, POST /api/login, the setup page and the staff gate. Codes are TOTP (RFC 6238): six
 * digits, a new one every 30 seconds; recovery codes are ten random codes shown once.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes one step either side of now are accepted (a phone clock a little off). */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** How long a correct password waits for its code before sign-in starts over. */
export const PENDING_LOGIN_MINUTES = 10;
/** A session's last-seen time is written at most this often (not on every request). */
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
 * Whether a sign-in code is still checked (docs/product.md "Accounts and sessions"), given the
 * account's wrong codes in a row counting this attempt as one (it is counted before it is
 * checked, so codes tried at the same moment all count): past `freezeAfter` the app's codes
 * are refused unchecked, and only a recovery code is.
 */
export function codeIsChecked(failuresWithThis: number, freezeAfter: number, code: string) {
  return !(looksLikeTotp(code) && failuresWithThis > freezeAfter);
}

/**
 * The e-mail a wrong code sends its owner: on the first of a run (a right password followed by
 * a wrong code) and on the one that freezes the app's codes; none for the guesses between, so
 * an attacker cannot fill the inbox.
 */
export function wrongCodeAlert(
  failuresWithThis: number,
  freezeAfter: number,
): "frozen" | "wrong-code" | null {
  if (failuresWithThis === freezeAfter) return "frozen";
  return failuresWithThis === 1 ? "wrong-code" : null;
}

/** The time step a moment falls in. */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** A code as typed: spaces and dashes dropped, lower case ("ABCDE-12345" = "abcde12345"). */
export function normalizeCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Six digits (after spaces are dropped): an app's code rather than a recovery code. */
export function looksLikeTotp(code: string): boolean {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(normalizeCode(code));
}

/**
 * Whether a staff session has been idle too long: it ends once `idleMinutes` have passed since
 * the last request seen (to within LAST_SEEN_WRITE_MS, as that time is written once a minute).
 */
export function isIdleTooLong(lastSeenAt: number, now: number, idleMinutes: number): boolean {
  return now - lastSeenAt >= idleMinutes * 60_000;
}

/** Whether a request should write the session's last-seen time (about once a minute). */
export function lastSeenIsStale(lastSeenAt: number, now: number): boolean {
  return now - lastSeenAt >= LAST_SEEN_WRITE_MS;
}

const codeField = requiredText(TWO_FACTOR_REQUIRED).max(40, INVALID_TWO_FACTOR_CODE);

/** The sign-in page's second step: a code from the app, or a recovery code. */
export const loginCodeSchema = z.object({ code: codeField });

/** POST /api/login: the password, and the code once the account asks for one. */
export const apiLoginSchema = loginSchema.extend({ code: codeField.optional() });

/** Setup: the code the app shows, proving it holds the secret. */
export const confirmTwoFactorSchema = z.object({
  code: requiredText(INVALID_SETUP_CODE).regex(/^\s*\d{3}\s?\d{3}\s*$/, INVALID_SETUP_CODE),
});

/** Turning it off: the password, or a code (from the app or a recovery code). */
export const disableTwoFactorSchema = z.object({
  proof: requiredText("Enter your password or a code.").max(200, WRONG_PASSWORD_OR_CODE),
});
