import { type SealingKeys, seal, unseal } from "#app/secrets.server";
import { TEST_DATA_ENCRYPTION_KEY } from "#tests/setup/data-key";

/** The keys of every server the suites start (tests/setup/data-key.ts). */
export const testKeys: SealingKeys = {
  current: Buffer.from(TEST_DATA_ENCRYPTION_KEY, "base64"),
  previous: [],
};

/** A TOTP secret as the site stores it. */
export function sealTotpSecret(secret: string): string {
  return seal(testKeys, "totp-secret", secret);
}

/** A stored TOTP secret or feed token, opened. */
export function openStored(purpose: "totp-secret" | "feed-token", stored: string): string {
  return unseal(testKeys, purpose, stored);
}
