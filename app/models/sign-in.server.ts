import { randomBytes } from "node:crypto";
import { and, eq, gt, lt, ne, sql } from "drizzle-orm";
import { signIns, users } from "#db/schema";
import { db, DatabaseBusyError, type Tx, unlessBusy } from "#app/db.server";
import { sha256Hex } from "#app/secrets.server";

/**
 * The sign_ins table: who a sign-in id belongs to and until when (the cookie holds only the
 * id; web/sign-in.server.ts handles the cookie). The table keeps the SHA-256 of the cookie's
 * value, never the value (docs/product.md "Accounts and sign-ins"): a copy of the database holds
 * no cookie that signs in. Every function here takes and stores that hash, `storedSignInId`.
 */

/** What the table holds for a cookie's sign-in id: the one place a cookie value is hashed. */
export function storedSignInId(cookieValue: string): string {
  return sha256Hex(cookieValue);
}

/** A new sign-in: 256 random bits for the cookie, and what the table stores of them. */
function newSignIn(): { cookieValue: string; id: string } {
  const cookieValue = randomBytes(32).toString("base64url");
  return { cookieValue, id: storedSignInId(cookieValue) };
}

// Every signed-in request runs this: prepared once instead of rebuilt and re-prepared each time.
const liveSignIn = db
  .select({
    userId: signIns.userId,
    isAdmin: users.isAdmin,
    secondFactor: signIns.secondFactor,
    // Rows from before the column have no last-seen time: their start stands in.
    lastSeenAt: sql<number>`coalesce(${signIns.lastSeenAt}, ${signIns.createdAt})`,
  })
  .from(signIns)
  .innerJoin(users, eq(users.id, signIns.userId))
  .where(and(eq(signIns.id, sql.placeholder("id")), gt(signIns.expiresAt, sql.placeholder("now"))))
  .prepare();

export type LiveSignIn = {
  userId: number;
  isAdmin: boolean;
  /** The sign-in proved a second factor (a code or a passkey), not only the password. */
  secondFactor: boolean;
  lastSeenAt: number;
};

/** A sign-in not yet expired (who, whether staff, last request seen), or null. */
export function findLiveSignIn(id: string, now: number): LiveSignIn | null {
  return liveSignIn.get({ id, now }) ?? null;
}

/**
 * Records a request on the sign-in (the caller writes about once a minute, not on every
 * request). A busy database skips it: the next request a minute on writes it instead.
 */
export function touchSignIn(id: string, now: number): void {
  try {
    unlessBusy(() => db.update(signIns).set({ lastSeenAt: now }).where(eq(signIns.id, id)).run());
  } catch (error) {
    if (!(error instanceof DatabaseBusyError)) throw error;
  }
}

/**
 * Starts a sign-in for `userId` lasting until `expiresAt` and returns the cookie's value, ending
 * the sign-in the browser carried before (`previous`). Expired rows of anyone are swept here
 * rather than by a timer.
 */
export function startSignIn(
  tx: Tx,
  userId: number,
  expiresAt: number,
  previous: string | null,
  now: number,
  secondFactor: boolean,
): string {
  const { cookieValue, id } = newSignIn();
  if (previous) tx.delete(signIns).where(eq(signIns.id, previous)).run();
  tx.delete(signIns).where(lt(signIns.expiresAt, now)).run();
  tx.insert(signIns).values({ id, userId, expiresAt, lastSeenAt: now, secondFactor }).run();
  return cookieValue;
}

/**
 * Records that this sign-in's holder proved a second factor after signing in (they turned
 * two-factor on and confirmed its code), so the staff gate lets them in without a new sign-in.
 */
export function markSecondFactor(id: string): void {
  unlessBusy(() => db.update(signIns).set({ secondFactor: true }).where(eq(signIns.id, id)).run());
}

/** Ends one sign-in (a copied cookie dies too); a busy database answers 503 as everywhere. */
export function endSignIn(id: string): void {
  unlessBusy(() => db.delete(signIns).where(eq(signIns.id, id)).run());
}

/**
 * Ends every sign-in of the user and starts one fresh one, lasting until `expiresAt`, inside
 * the caller's transaction (a password change): a stolen cookie dies with the old password,
 * the changer stays signed in, with the second factor their sign-in proved. Returns the fresh
 * sign-in's cookie value.
 */
export function restartUserSignIns(
  tx: Tx,
  userId: number,
  expiresAt: number,
  secondFactor: boolean,
): string {
  const { cookieValue, id } = newSignIn();
  tx.delete(signIns).where(eq(signIns.userId, userId)).run();
  tx.insert(signIns).values({ id, userId, expiresAt, lastSeenAt: Date.now(), secondFactor }).run();
  return cookieValue;
}

/**
 * Ends every sign-in of the user but `keep` (the one asking: "Sign out of all devices"), inside
 * the caller's transaction. Returns how many ended.
 */
export function endOtherSignIns(tx: Tx, userId: number, keep: string): number {
  return tx
    .delete(signIns)
    .where(and(eq(signIns.userId, userId), ne(signIns.id, keep)))
    .run().changes;
}
