import { generateTOTP, getTOTPAuthUri, verifyTOTP } from "@epic-web/totp";
import { and, count, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { recoveryCodes, users } from "#db/schema";
import { db, type Tx, unlessBusy } from "#app/db.server";
import { dataKeys, seal, unseal } from "#app/secrets.server";
import { hashRecoveryCode } from "#app/models/recovery-codes.server";
import {
  looksLikeTotp,
  normalizeCode,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  TOTP_WINDOW,
  totpStep,
} from "#app/domain/two-factor";

/** docs/product.md "Accounts and sign-ins": the TOTP secret is sealed; recovery codes are stored as SHA-256 hashes. */
const TOTP = { period: TOTP_PERIOD_SECONDS, digits: TOTP_DIGITS, algorithm: "SHA-1" } as const;

export type TwoFactorState = {
  enabled: boolean;
  pendingSecret: string | null;
  recoveryCodesLeft: number;
};

/** The secret is stored sealed (app/secrets.server.ts). */
function readTotp(userId: number) {
  const row = db
    .select({
      sealed: users.totpSecret,
      enabledAt: users.totpEnabledAt,
      lastStep: users.totpLastStep,
    })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!row) return undefined;
  const secret = row.sealed === null ? null : unseal(dataKeys, "totp-secret", row.sealed);
  return { ...row, secret };
}

export function twoFactorState(userId: number): TwoFactorState {
  const row = readTotp(userId);
  const left =
    db.select({ n: count() }).from(recoveryCodes).where(eq(recoveryCodes.userId, userId)).get()
      ?.n ?? 0;
  return {
    enabled: row?.enabledAt != null,
    pendingSecret: row?.enabledAt == null ? (row?.secret ?? null) : null,
    recoveryCodesLeft: left,
  };
}

export function hasTwoFactor(userId: number): boolean {
  return readTotp(userId)?.enabledAt != null;
}

/** Null when two-factor is already on. */
export async function pendingSecretFor(userId: number): Promise<string | null> {
  const row = readTotp(userId);
  if (!row || row.enabledAt != null) return null;
  if (row.secret) return row.secret;
  const { secret } = await generateTOTP(TOTP);
  unlessBusy(() =>
    db
      .update(users)
      .set({ totpSecret: seal(dataKeys, "totp-secret", secret), totpLastStep: null })
      .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
      .run(),
  );
  return readTotp(userId)?.secret ?? null;
}

export function authUri(secret: string, accountName: string): string {
  return getTOTPAuthUri({ ...TOTP, secret, accountName, issuer: "ATL Creator Studio" });
}

async function stepOf(secret: string, code: string, now: number): Promise<number | null> {
  const result = await verifyTOTP({
    ...TOTP,
    otp: normalizeCode(code),
    secret,
    window: TOTP_WINDOW,
  });
  return result ? totpStep(now) + result.delta : null;
}

/** The update is the check: a code works once, even from two requests at the same moment. */
function claimStep(userId: number, step: number): boolean {
  const claimed = unlessBusy(() =>
    db
      .update(users)
      .set({ totpLastStep: step })
      .where(
        and(
          eq(users.id, userId),
          isNotNull(users.totpEnabledAt),
          or(isNull(users.totpLastStep), lt(users.totpLastStep, step)),
        ),
      )
      .run(),
  );
  return claimed.changes === 1;
}

function spendRecoveryCode(userId: number, code: string): boolean {
  const used = unlessBusy(() =>
    db
      .delete(recoveryCodes)
      .where(
        and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashRecoveryCode(code))),
      )
      .run(),
  );
  return used.changes === 1;
}

/** Which kind passed, or null. */
export async function spendSecondFactor(
  userId: number,
  code: string,
  now = Date.now(),
): Promise<"totp" | "recovery" | null> {
  const row = readTotp(userId);
  if (!row?.secret || row.enabledAt == null) return null;
  if (looksLikeTotp(code)) {
    const step = await stepOf(row.secret, code, now);
    return step !== null && claimStep(userId, step) ? "totp" : null;
  }
  return spendRecoveryCode(userId, code) ? "recovery" : null;
}

/** Counted before the check, in one UPDATE, so codes tried at the same moment are all counted. */
export function countCodeAttempt(userId: number): number | null {
  const row = unlessBusy(() =>
    db
      .update(users)
      .set({ twoFactorFailures: sql`${users.twoFactorFailures} + 1` })
      .where(and(eq(users.id, userId), isNotNull(users.totpEnabledAt)))
      .returning({ failures: users.twoFactorFailures })
      .get(),
  );
  return row?.failures ?? null;
}

export function clearCodeFailures(userId: number): void {
  unlessBusy(() =>
    db.update(users).set({ twoFactorFailures: 0 }).where(eq(users.id, userId)).run(),
  );
}

export async function firstCodeStep(
  userId: number,
  code: string,
  now: number,
): Promise<{ sealed: string; step: number } | null> {
  const row = readTotp(userId);
  if (!row?.secret || !row.sealed || row.enabledAt != null) return null;
  const step = await stepOf(row.secret, code, now);
  return step === null ? null : { sealed: row.sealed, step };
}

/** False: nothing written. */
export function turnOnTwoFactor(
  tx: Tx,
  userId: number,
  first: { sealed: string; step: number },
  codes: readonly string[],
  now: number,
): boolean {
  const on = tx
    .update(users)
    .set({ totpEnabledAt: now, totpLastStep: first.step, twoFactorFailures: 0 })
    .where(
      and(eq(users.id, userId), eq(users.totpSecret, first.sealed), isNull(users.totpEnabledAt)),
    )
    .run();
  if (on.changes !== 1) return false;
  tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run();
  tx.insert(recoveryCodes)
    .values(codes.map((c) => ({ userId, codeHash: hashRecoveryCode(c) })))
    .run();
  return true;
}

export function turnOffTwoFactor(tx: Tx, userId: number): void {
  tx.update(users)
    .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, twoFactorFailures: 0 })
    .where(eq(users.id, userId))
    .run();
  tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run();
}
