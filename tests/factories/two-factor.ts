import { generateTOTP } from "@epic-web/totp";
import { eq } from "drizzle-orm";
import { recoveryCodes, users } from "#db/schema";
import { hashRecoveryCode } from "#app/models/recovery-codes.server";
import type { FactoryDb } from "#tests/factories/database";
import { openStored, sealTotpSecret } from "#tests/factories/secrets";

/** A fixed base32 secret for the tests that need to know it in advance. */
export const TEST_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DP";

/**
 * Turns two-factor on for a user as a finished setup leaves it: the secret, the time it was
 * turned on and `recovery` codes (stored as their hashes). Returns what a test signs in with.
 */
export function enableTwoFactor(
  db: FactoryDb,
  userId: number,
  { secret = TEST_TOTP_SECRET, recovery = ["aaaaa-bbbbb", "ccccc-ddddd"] } = {},
) {
  db.update(users)
    .set({ totpSecret: sealTotpSecret(secret), totpEnabledAt: Date.now(), totpLastStep: null })
    .where(eq(users.id, userId))
    .run();
  db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run();
  if (recovery.length > 0) {
    db.insert(recoveryCodes)
      .values(recovery.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })))
      .run();
  }
  return { secret, recovery };
}

/** The secret stored for a user (during setup or once on), opened as the app reads it. */
export function storedTotpSecret(db: FactoryDb, userId: number): string {
  const secret = db
    .select({ secret: users.totpSecret })
    .from(users)
    .where(eq(users.id, userId))
    .get()?.secret;
  if (!secret) throw new Error(`User ${userId} has no TOTP secret`);
  return openStored("totp-secret", secret);
}

/** The code an authenticator app shows now for `secret` (the app's own library and settings). */
export async function currentCode(secret: string): Promise<string> {
  return (await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" })).otp;
}
