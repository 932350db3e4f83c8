import { z } from "zod";
import { PASSKEY_CHALLENGE_EXPIRED, PASSKEY_VERIFICATION_FAILED } from "#app/domain/passkey";

/**
 * The JSON the passkey buttons post (routes/auth.passkey.ts, routes/dashboard/passkeys.ts):
 * the browser's answer is checked in depth by @simplewebauthn/server; here only its outline,
 * so a malformed body is refused in our words.
 */
export const challengeIdField = z
  .string({ error: PASSKEY_CHALLENGE_EXPIRED })
  .min(1, { error: PASSKEY_CHALLENGE_EXPIRED })
  .max(64, { error: PASSKEY_CHALLENGE_EXPIRED });

export function credentialField<T>() {
  return z.custom<T>(
    (value) =>
      typeof value === "object" &&
      value !== null &&
      typeof (value as { id?: unknown }).id === "string" &&
      typeof (value as { response?: unknown }).response === "object" &&
      (value as { response?: unknown }).response !== null,
    { error: PASSKEY_VERIFICATION_FAILED },
  );
}
