import { randomBytes } from "node:crypto";
import { and, eq, gt, lt, ne, sql } from "drizzle-orm";
import { sessions, users } from "#db/schema";
import { db, DatabaseBusyError, type Tx, unlessBusy, writeTransaction } from "#app/db.server";
import { sha256Hex } from "#app/secrets.server";

/**
 * The sessions table: who a session id belongs to and until when (the cookie holds only the
 * id; web/session.server.ts handles the cookie). The table keeps the SHA-256 of the cookie's
 * value, never the value (docs/product.md "Accounts and sessions"): a copy of the database holds
 * no cookie that signs in. Every function here takes and stores that hash, `storedSessionId`.
 */

/** What the table holds for a cookie's session id: the one place a cookie value is hashed. */
export function storedSessionId(cookieValue: string): string {
  return sha256Hex(cookieValue);
}

/** A new session: 256 random bits for the cookie, and what the table stores of them. */
function newSession(): { cookieValue: string; id: string } {
  const cookieValue = randomBytes(32).toString("base64url");
  return { cookieValue, id: storedSessionId(cookieValue) };
}

// Every signed-in request runs this: prepared once instead of rebuilt and re-prepared each time.
const liveSession = db
  .select({
    userId: sessions.userId,
    isAdmin: users.isAdmin,
    secondFactor: sessions.secondFactor,
    // Rows from before the column have no last-seen time: their start stands in.
    lastSeenAt: sql<number>`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`,
  })
  .from(sessions)
  .innerJoin(users, eq(users.id, sessions.userId))
  .where(
    and(eq(sessions.id, sql.placeholder("id")), gt(sessions.expiresAt, sql.placeholder("now"))),
  )
  .prepare();

export type LiveSession = {
  userId: number;
  isAdmin: boolean;
  /** The sign-in proved a second factor (a code or a passkey), not only the password. */
  secondFactor: boolean;
  lastSeenAt: number;
};

/** A session not yet expired (who, whether staff, last request seen), or null. */
export function findLiveSession(id: string, now: number): LiveSession | null {
  return liveSession.get({ id, now }) ?? null;
}

/**
 * Records a request on the session (the caller writes about once a minute, not on every
 * request). A busy database skips it: the next request a minute on writes it instead.
 */
export function touchSession(id: string, now: number): void {
  try {
    unlessBusy(() => db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id)).run());
  } catch (error) {
    if (!(error instanceof DatabaseBusyError)) throw error;
  }
}

/**
 * Starts a session for `userId` lasting until `expiresAt` and returns the cookie's value, ending
 * the session the browser carried before (`previous`). Expired rows of anyone are swept here
 * rather than by a timer.
 */
export function startSession(
  userId: number,
  expiresAt: number,
  previous: string | null,
  now: number,
  secondFactor: boolean,
): string {
  const { cookieValue, id } = newSession();
  writeTransaction((tx) => {
    if (previous) tx.delete(sessions).where(eq(sessions.id, previous)).run();
    tx.delete(sessions).where(lt(sessions.expiresAt, now)).run();
    tx.insert(sessions).values({ id, userId, expiresAt, lastSeenAt: now, secondFactor }).run();
  });
  return cookieValue;
}

/**
 * Records that this session's holder proved a second factor after signing in (they turned
 * two-factor on and confirmed its code), so the staff gate lets them in without a new sign-in.
 */
export function markSecondFactor(id: string): void {
  unlessBusy(() =>
    db.update(sessions).set({ secondFactor: true }).where(eq(sessions.id, id)).run(),
  );
}

/** Ends one session (a copied cookie dies too); a busy database answers 503 as everywhere. */
export function endSession(id: string): void {
  unlessBusy(() => db.delete(sessions).where(eq(sessions.id, id)).run());
}

/**
 * Ends every session of the user and starts one fresh one, lasting until `expiresAt`, inside
 * the caller's transaction (a password change): a stolen cookie dies with the old password,
 * the changer stays signed in, with the second factor their sign-in proved. Returns the fresh
 * session's cookie value.
 */
export function restartUserSessions(
  tx: Tx,
  userId: number,
  expiresAt: number,
  secondFactor: boolean,
): string {
  const { cookieValue, id } = newSession();
  tx.delete(sessions).where(eq(sessions.userId, userId)).run();
  tx.insert(sessions).values({ id, userId, expiresAt, lastSeenAt: Date.now(), secondFactor }).run();
  return cookieValue;
}

/**
 * Ends every session of the user but `keep` (the one asking: "Sign out of all devices"), inside
 * the caller's transaction. Returns how many ended.
 */
export function endOtherSessions(tx: Tx, userId: number, keep: string): number {
  return tx
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keep)))
    .run().changes;
}
