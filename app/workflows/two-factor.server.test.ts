import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recoveryCodes, users } from "#db/schema";
import { db } from "#app/db.server";
import { hasTwoFactor, pendingSecretFor, twoFactorState } from "#app/models/two-factor.server";
import { confirmTwoFactor, disableTwoFactor } from "#app/workflows/two-factor.server";
import { createUser } from "#tests/factories/user";
import { currentCode, enableTwoFactor } from "#tests/factories/two-factor";

/** Turning two-factor on and off against a real, freshly migrated SQLite file. */
const row = (userId: number) => db.select().from(users).where(eq(users.id, userId)).get();
const codesLeft = (userId: number) =>
  db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId)).all().length;

describe("setting up two-factor", () => {
  it("keeps one waiting secret until the app's code confirms it, then gives ten codes once", async () => {
    const user = await createUser(db);
    const secret = await pendingSecretFor(user.id);
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    expect(await pendingSecretFor(user.id)).toBe(secret);
    expect(hasTwoFactor(user.id)).toBe(false);

    const codes = await confirmTwoFactor(user.id, await currentCode(secret ?? ""));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes ?? []) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(hasTwoFactor(user.id)).toBe(true);
    expect(twoFactorState(user.id)).toEqual({
      enabled: true,
      pendingSecret: null,
      recoveryCodesLeft: 10,
    });
    // Only hashes are stored.
    const stored = db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).all();
    expect(stored.map((r) => r.codeHash)).not.toContain(codes?.[0]);
    // Confirming again does nothing: it is already on.
    expect(await confirmTwoFactor(user.id, await currentCode(secret ?? ""))).toBeNull();
    expect(codesLeft(user.id)).toBe(10);
  });

  it("refuses a wrong code and writes nothing", async () => {
    const user = await createUser(db);
    await pendingSecretFor(user.id);
    const before = row(user.id);
    expect(await confirmTwoFactor(user.id, "000000")).toBeNull();
    expect(row(user.id)).toEqual(before);
    expect(codesLeft(user.id)).toBe(0);
  });

  it("turning it off forgets the secret and the recovery codes", async () => {
    const user = await createUser(db);
    enableTwoFactor(db, user.id);
    disableTwoFactor(user.id);
    expect(row(user.id)).toMatchObject({ totpSecret: null, totpEnabledAt: null });
    expect(codesLeft(user.id)).toBe(0);
  });
});
