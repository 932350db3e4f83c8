import { createHash, randomBytes } from "node:crypto";
import { normalizeCode, RECOVERY_CODE_COUNT } from "#app/domain/two-factor";

/**
 * Recovery codes on their own, without the database (the tests' factories hash with exactly the
 * app's rule). Only a SHA-256 of each code is stored: they are random, 50 bits each and tried
 * under the two-factor rate limit, so a slow password hash would add nothing (decision 0079).
 */

/** Ten fresh recovery codes, "xxxxx-xxxxx" of lower-case letters and digits (50 random bits). */
export function newRecoveryCodes(): string[] {
  // 32 symbols (no 0/o, 1/l): each byte's low five bits pick one, evenly.
  const alphabet = "abcdefghijkmnpqrstuvwxyz23456789";
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((byte) => alphabet[byte % 32]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** The stored form of a code, as typed in any case, with or without its dash. */
export function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(normalizeCode(code)).digest("hex");
}
