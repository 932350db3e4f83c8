import { z } from "#app/domain/zod";

/**
 * The rule for a password being chosen (docs/product.md "Validation"): at least 8 characters
 * and not easy to guess, which zxcvbn (with its dictionary of common passwords) scores at
 * least 3 of 4. Every schema that sets a password (registration, the password change, any
 * later reset) uses `newPasswordSchema`.
 *
 * The domain stays pure and light: zxcvbn and its dictionary (about 200 kB gzipped) are the
 * server's, handed in once at start (app/web/passwords.server.ts). The browser never has
 * them, so there the strength check is left to the server (a weak password comes back with
 * the server's message). Checking one password takes a few milliseconds (under 70 ms at the
 * 200-character maximum), and only when a password is being set.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
export const STRONG_ENOUGH_SCORE = 3;

const TOO_SHORT = `Password must be at least ${PASSWORD_MIN} characters`;

/** zxcvbn's verdict: a score from 0 (weakest) to 4, and the key of its main reason. */
export type PasswordEstimate = { score: number; warning: string | null };
type Estimator = (password: string) => PasswordEstimate;
let estimate: Estimator | null = null;

/** The server hands in its strength estimator (zxcvbn) once, before taking requests. */
export function setPasswordEstimator(estimator: Estimator): void {
  estimate = estimator;
}

/** Our words for zxcvbn's reasons (its own sentences are never shown). */
const REASONS: Record<string, string> = {
  topTen: "it is one of the most common passwords",
  topHundred: "it is one of the most common passwords",
  common: "it is a commonly used password",
  similarToCommon: "it is too close to a commonly used password",
  straightRow: "it is a row of keys on the keyboard",
  keyPattern: "it is a pattern of keys on the keyboard",
  simpleRepeat: "it repeats the same characters",
  extendedRepeat: "it repeats the same characters",
  sequences: "it is a simple sequence like abc or 123",
  recentYears: "it relies on a year",
  dates: "it relies on a date",
  wordByItself: "it is a single word",
  namesByThemselves: "it is mostly a name",
  commonNames: "it is mostly a common name",
};

export const WEAK_PASSWORD_ADVICE = "Try three or four unrelated words, or a longer password.";

/** The sentence shown for a password that is too easy to guess. */
export function weakPasswordMessage(reason: string | null): string {
  const why = reason ? REASONS[reason] : undefined;
  return `This password is too easy to guess${why ? `: ${why}` : ""}. ${WEAK_PASSWORD_ADVICE}`;
}

/**
 * Why `password` is too weak, as the sentence to show; null when it is strong enough, or in the
 * browser (which never has the estimator: the server decides).
 */
export function passwordWeakness(password: string): string | null {
  if (!estimate) {
    if (typeof document !== "undefined") return null;
    // On the server a missing estimator must not wave passwords through.
    throw new Error("No password estimator: import app/web/passwords.server.ts at start");
  }
  const result = estimate(password);
  if (result.score >= STRONG_ENOUGH_SCORE) return null;
  return weakPasswordMessage(result.warning);
}

/** A password being chosen: long enough, not too long, and not weak. */
export const newPasswordSchema = z
  .string({ error: TOO_SHORT })
  .min(PASSWORD_MIN, { error: TOO_SHORT, abort: true })
  .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters`, abort: true })
  .superRefine((value, context) => {
    const weakness = passwordWeakness(value);
    if (weakness) context.addIssue({ code: "custom", message: weakness });
  });
