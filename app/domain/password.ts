import { z } from "#app/domain/zod";

/**
 * At least 8 characters and a zxcvbn score of 3 of 4 (docs/product.md "Validation"). zxcvbn's
 * dictionary (about 200 kB gzipped) stays on the server, handed in once at start: in the browser
 * the strength check is left to the server's reply.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
export const STRONG_ENOUGH_SCORE = 3;

const TOO_SHORT = `Password must be at least ${PASSWORD_MIN} characters`;

export type PasswordEstimate = { score: number; warning: string | null };
type Estimator = (password: string) => PasswordEstimate;
let estimate: Estimator | null = null;

export function setPasswordEstimator(estimator: Estimator): void {
  estimate = estimator;
}

/** Our words: zxcvbn's own sentences are never shown. */
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

export function weakPasswordMessage(reason: string | null): string {
  const why = reason ? REASONS[reason] : undefined;
  return `This password is too easy to guess${why ? `: ${why}` : ""}. ${WEAK_PASSWORD_ADVICE}`;
}

/** Null in the browser, which never has the estimator: the server decides. */
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

export const newPasswordSchema = z
  .string({ error: TOO_SHORT })
  .min(PASSWORD_MIN, { error: TOO_SHORT, abort: true })
  .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters`, abort: true })
  .superRefine((value, context) => {
    const weakness = passwordWeakness(value);
    if (weakness) context.addIssue({ code: "custom", message: weakness });
  });
