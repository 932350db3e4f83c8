import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recoveryCodes } from "#db/schema";
import { db } from "#app/db.server";
import { pendingSecretFor, spendSecondFactor } from "#app/models/two-factor.server";
import { createUser } from "#tests/factories/user";
import { currentCode, enableTwoFactor, storedTotpSecret } from "#tests/factories/two-factor";

/** Two-factor's storage against a real, freshly migrated SQLite file. */
afterEach(() => {
  vi.useRealTimers();
});

const codesLeft = (userId: number) =>
  db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId)).all().length;

describe("a sign-in code", () => {
  it("is accepted once: the same code again is refused", async () => {
    const user = await createUser(db);
    const { secret } = enableTwoFactor(db, user.id);
    const code = await currentCode(secret);
    expect(await spendSecondFactor(user.id, code)).toBe("totp");
    expect(await spendSecondFactor(user.id, code)).toBeNull();
  });

  it("is refused when a later step's code was already used, accepted in the next step", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.UTC(2030, 0, 1, 12, 0, 0);
    vi.setSystemTime(start);
    const user = await createUser(db);
    const { secret } = enableTwoFactor(db, user.id);
    const earlier = await currentCode(secret);
    vi.setSystemTime(start + 30_000);
    const later = await currentCode(secret);
    expect(await spendSecondFactor(user.id, later)).toBe("totp");
    // The earlier step's code is still inside the window, but older than the one used.
    expect(await spendSecondFactor(user.id, earlier)).toBeNull();
    vi.setSystemTime(start + 60_000);
    expect(await spendSecondFactor(user.id, await currentCode(secret))).toBe("totp");
  });

  it("is refused when wrong, or too old for the window", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.UTC(2030, 0, 1, 12, 0, 0);
    vi.setSystemTime(start);
    const user = await createUser(db);
    const { secret } = enableTwoFactor(db, user.id);
    const old = await currentCode(secret);
    vi.setSystemTime(start + 90_000);
    expect(await spendSecondFactor(user.id, old)).toBeNull();
    const now = await currentCode(secret);
    const wrong = now === "123456" ? "654321" : "123456";
    expect(await spendSecondFactor(user.id, wrong)).toBeNull();
  });

  it("is refused for an account without two-factor", async () => {
    const user = await createUser(db);
    await pendingSecretFor(user.id);
    const secret = storedTotpSecret(db, user.id);
    expect(await spendSecondFactor(user.id, await currentCode(secret))).toBeNull();
  });

  it("can be a recovery code, used up on first use, typed in any case", async () => {
    const user = await createUser(db);
    enableTwoFactor(db, user.id, { recovery: ["abcde-fghij", "klmno-pqrst"] });
    expect(await spendSecondFactor(user.id, "ABCDE FGHIJ")).toBe("recovery");
    expect(await spendSecondFactor(user.id, "abcde-fghij")).toBeNull();
    expect(codesLeft(user.id)).toBe(1);
    // Another account's code is not this one's.
    const other = await createUser(db);
    enableTwoFactor(db, other.id, { recovery: ["zzzzz-yyyyy"] });
    expect(await spendSecondFactor(user.id, "zzzzz-yyyyy")).toBeNull();
    expect(await spendSecondFactor(other.id, "zzzzz-yyyyy")).toBe("recovery");
  });
});
