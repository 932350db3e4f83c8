import { requiredText, z } from "#app/domain/zod";

/** docs/product.md "Accounts and sign-ins". */
export const PASSKEY_NAME_MAX = 50;
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export const PASSKEY_NAME_REQUIRED = "Give the passkey a name, such as the device it is on.";
export const PASSKEY_NAME_TOO_LONG = `A passkey's name is at most ${PASSKEY_NAME_MAX} characters.`;
export const PASSKEY_UNKNOWN =
  "This passkey is not known here. Sign in with your password, then add the passkey on Profile Settings.";
export const PASSKEY_CHALLENGE_EXPIRED =
  "The passkey request expired or was already used. Please try again.";
export const PASSKEY_VERIFICATION_FAILED =
  "The passkey could not be verified. Please try again, and confirm with your fingerprint, face or PIN.";
export const PASSKEY_ALREADY_REGISTERED = "This passkey is already added to an account.";
export const PASSKEY_NOT_FOUND = "That passkey is not on your account any more.";
export const PASSKEY_BROWSER_FAILED =
  "Your browser did not create or use a passkey. Please try again.";

export const passkeyNameSchema = z.object({
  name: requiredText(PASSKEY_NAME_REQUIRED).max(PASSKEY_NAME_MAX, { error: PASSKEY_NAME_TOO_LONG }),
});

export const removePasskeySchema = z.object({
  passkeyId: z.coerce
    .number({ error: PASSKEY_NOT_FOUND })
    .int({ error: PASSKEY_NOT_FOUND })
    .positive({ error: PASSKEY_NOT_FOUND }),
});

export type PasskeyRow = { id: number; name: string; added: string; lastUsed: string | null };
