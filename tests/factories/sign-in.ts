import { createHash, randomBytes } from "node:crypto";
import { signIns } from "#db/schema";
import type { FactoryDb } from "#tests/factories/database";

type SignIn = typeof signIns.$inferSelect;

/** The cookie app/web/sign-in.server.ts reads: only the sign-in id (decision 0092: unsigned). */
export const SIGN_IN_COOKIE_NAME = "__session";

/** SESSION_MAX_AGE_DAYS's default. */
const DEFAULT_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

export type SignInInput = Partial<SignIn> & { userId: number };

/**
 * A sign-in as a login leaves it (decision 0017: tests sign in by inserting the
 * row): a random 256-bit id, alive for the default 14 days. The row holds the SHA-256 of the
 * id, as the site stores it; the sign-in returned carries the id itself, the cookie's value.
 */
export function createSignIn(db: FactoryDb, input: SignInInput): SignIn {
  const cookie = randomBytes(32).toString("base64url");
  const row = db
    .insert(signIns)
    .values({
      expiresAt: Date.now() + DEFAULT_MAX_AGE_MS,
      ...input,
      id: storedSignInId(input.id ?? cookie),
    })
    .returning()
    .get();
  return { ...row, id: input.id ?? cookie };
}

/** What the sign_ins table holds for a cookie's sign-in id: its SHA-256 in hex. */
export function storedSignInId(cookieValue: string): string {
  return createHash("sha256").update(cookieValue).digest("hex");
}

/**
 * The cookie's value for a sign-in id, for a browser context or a Cookie header: the id itself
 * (decision 0092), as the server writes it.
 */
export function signInCookieValue(signInId: string): string {
  return signInId;
}
