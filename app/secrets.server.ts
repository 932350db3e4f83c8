import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { env } from "#app/env.server";

/**
 * Secrets at rest (docs/product.md "Accounts and sign-ins"): a bearer secret is stored as its
 * SHA-256, or sealed (AES-256-GCM) when the site must read it back. A database copy opens nothing.
 */

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Anything else in such a column is from before hashing. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Older keys are still read during a rotation (docs/deploy.md). */
export type SealingKeys = { current: Buffer; previous: Buffer[] };

/** What a sealed value is for, bound into it: a feed token cannot stand in for a TOTP secret. */
export type SealPurpose = "totp-secret" | "feed-token";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A short public name of a key: a sealed value says which key sealed it. */
function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("base64url").slice(0, 8);
}

export const dataKeys: SealingKeys = {
  current: Buffer.from(env.DATA_ENCRYPTION_KEY, "base64"),
  previous: env.DATA_ENCRYPTION_KEY_PREVIOUS
    ? [Buffer.from(env.DATA_ENCRYPTION_KEY_PREVIOUS, "base64")]
    : [],
};

export function seal(keys: SealingKeys, purpose: SealPurpose, value: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keys.current, iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return [VERSION, keyId(keys.current), iv.toString("base64url"), body.toString("base64url")].join(
    ".",
  );
}

/** A sealed value no key opens: altered, made for another purpose, or under an unknown key. */
export class UnsealError extends Error {}

export function unseal(keys: SealingKeys, purpose: SealPurpose, sealed: string): string {
  const [version, id, iv, body] = sealed.split(".");
  if (version !== VERSION || !id || !iv || !body) throw new UnsealError("Not a sealed value");
  const key = [keys.current, ...keys.previous].find((candidate) => keyId(candidate) === id);
  if (!key) throw new UnsealError("Sealed under a key that is not configured");
  const bytes = Buffer.from(body, "base64url");
  if (bytes.length < TAG_BYTES) throw new UnsealError("Not a sealed value");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return plain.toString("utf8");
  } catch {
    throw new UnsealError("The sealed value was altered");
  }
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(`${VERSION}.`);
}

export function sealedUnderCurrent(keys: SealingKeys, sealed: string): boolean {
  return sealed.startsWith(`${VERSION}.${keyId(keys.current)}.`);
}
