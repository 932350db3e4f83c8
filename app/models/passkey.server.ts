import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { passkeys, webauthnChallenges } from "#db/schema";
import { db, type Tx } from "#app/db.server";

/** docs/product.md "Accounts and sign-ins": a challenge is deleted by the transaction that checks it, so it answers once. */

export type ChallengePurpose = "REGISTER" | "SIGN_IN";

export type StoredPasskey = {
  id: number;
  userId: number;
  credentialId: string;
  publicKey: Buffer;
  counter: number;
  transports: string[];
};

export type PasskeyListing = {
  id: number;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
};

export function hasPasskey(userId: number): boolean {
  return (
    db
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .limit(1)
      .get() !== undefined
  );
}

export function listPasskeys(userId: number): PasskeyListing[] {
  return db
    .select({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id))
    .all();
}

function toStored(row: typeof passkeys.$inferSelect): StoredPasskey {
  return {
    id: row.id,
    userId: row.userId,
    credentialId: row.credentialId,
    publicKey: row.publicKey,
    counter: row.counter,
    transports: row.transports ? row.transports.split(",") : [],
  };
}

export function findPasskeyByCredentialId(credentialId: string): StoredPasskey | null {
  const row = db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).get();
  return row ? toStored(row) : null;
}

/** So its authenticators are not asked to register twice. */
export function credentialIdsOf(userId: number): { id: string; transports: string[] }[] {
  return db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .all()
    .map((row) => ({ id: row.credentialId, transports: toStored(row).transports }));
}

export function insertChallenge(
  tx: Tx,
  challenge: { challenge: string; userId: number | null; purpose: ChallengePurpose },
  now: number,
  expiresAt: number,
): string {
  tx.delete(webauthnChallenges)
    .where(lt(webauthnChallenges.expiresAt, now + 1))
    .run();
  const id = randomBytes(24).toString("base64url");
  tx.insert(webauthnChallenges)
    .values({ id, ...challenge, expiresAt, createdAt: now })
    .run();
  return id;
}

function challengeIs(id: string, purpose: ChallengePurpose, userId: number | null, now: number) {
  return and(
    eq(webauthnChallenges.id, id),
    eq(webauthnChallenges.purpose, purpose),
    userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
    gt(webauthnChallenges.expiresAt, now),
  );
}

export function liveChallenge(
  id: string,
  purpose: ChallengePurpose,
  userId: number | null,
  now: number,
): string | null {
  return (
    db
      .select({ challenge: webauthnChallenges.challenge })
      .from(webauthnChallenges)
      .where(challengeIs(id, purpose, userId, now))
      .get()?.challenge ?? null
  );
}

/** Another account's or purpose's challenge is left as it is and answers null. */
export function takeChallenge(
  tx: Tx,
  id: string,
  purpose: ChallengePurpose,
  userId: number | null,
  now: number,
): string | null {
  const row = tx
    .delete(webauthnChallenges)
    .where(challengeIs(id, purpose, userId, now))
    .returning({ challenge: webauthnChallenges.challenge })
    .get();
  return row?.challenge ?? null;
}

export function insertPasskey(
  tx: Tx,
  passkey: {
    userId: number;
    credentialId: string;
    publicKey: Uint8Array;
    counter: number;
    transports: string[];
    name: string;
  },
  now: number,
): number {
  const row = tx
    .insert(passkeys)
    .values({
      ...passkey,
      publicKey: Buffer.from(passkey.publicKey),
      transports: passkey.transports.join(","),
      createdAt: now,
    })
    .returning({ id: passkeys.id })
    .get();
  return row.id;
}

/** A cloned key replaying an old count changes nothing. */
export function recordPasskeyUse(
  tx: Tx,
  id: number,
  verifiedAgainst: number,
  newCounter: number,
  now: number,
): boolean {
  const result = tx
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: now })
    .where(
      and(
        eq(passkeys.id, id),
        eq(passkeys.counter, verifiedAgainst),
        or(
          gt(sql`${newCounter}`, passkeys.counter),
          and(eq(passkeys.counter, 0), sql`${newCounter} = 0`),
        ),
      ),
    )
    .run();
  return result.changes === 1;
}

export function deletePasskey(tx: Tx, userId: number, id: number): boolean {
  return (
    tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .run().changes === 1
  );
}
