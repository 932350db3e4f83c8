import { randomBytes } from "node:crypto";
import { and, eq, gt, lt, ne, sql } from "drizzle-orm";
import { signIns, users } from "#db/schema";
import { db, DatabaseBusyError, type Tx, unlessBusy } from "#app/db.server";
import { sha256Hex } from "#app/secrets.server";

/** docs/product.md "Accounts and sign-ins": the table keeps the SHA-256 of the cookie's value, so a database copy holds no cookie that signs in. */

/** The one place a cookie value is hashed. */
export function storedSignInId(cookieValue: string): string {
  return sha256Hex(cookieValue);
}

function newSignIn(): { cookieValue: string; id: string } {
  const cookieValue = randomBytes(32).toString("base64url");
  return { cookieValue, id: storedSignInId(cookieValue) };
}

// Every signed-in request runs this: prepared once.
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
  secondFactor: boolean;
  lastSeenAt: number;
};

export function findLiveSignIn(id: string, now: number): LiveSignIn | null {
  return liveSignIn.get({ id, now }) ?? null;
}

/** A busy database skips it: the next request writes it instead. */
export function touchSignIn(id: string, now: number): void {
  try {
    unlessBusy(() => db.update(signIns).set({ lastSeenAt: now }).where(eq(signIns.id, id)).run());
  } catch (error) {
    if (!(error instanceof DatabaseBusyError)) throw error;
  }
}

/** Expired rows of anyone are swept here rather than by a timer. */
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

/** So the staff gate lets them in without a new sign-in. */
export function markSecondFactor(id: string): void {
  unlessBusy(() => db.update(signIns).set({ secondFactor: true }).where(eq(signIns.id, id)).run());
}

/** A copied cookie dies too. */
export function endSignIn(id: string): void {
  unlessBusy(() => db.delete(signIns).where(eq(signIns.id, id)).run());
}

/** A stolen cookie dies with the old password; the changer stays signed in with their second factor. */
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

export function endOtherSignIns(tx: Tx, userId: number, keep: string): number {
  return tx
    .delete(signIns)
    .where(and(eq(signIns.userId, userId), ne(signIns.id, keep)))
    .run().changes;
}
