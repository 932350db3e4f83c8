import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { emailOutbox, users } from "#db/schema";
import { db } from "#app/db.server";
import { proveSignInCode } from "#app/workflows/sign-in-code.server";
import { createUser } from "#tests/factories/user";
import { currentCode, enableTwoFactor } from "#tests/factories/two-factor";

/**
 * A sign-in code's count of wrong codes in a row, the freeze and the owner's e-mails
 * (docs/product.md "Accounts and sign-ins"), against a real SQLite file. The app's code check
 * can be held open, so a second code can be tried in the gap between counting and checking.
 */
const gate = vi.hoisted(() => ({
  hold: null as Promise<void> | null,
  entered: () => {},
}));
vi.mock("@epic-web/totp", async (importOriginal) => {
  const real = await importOriginal<typeof import("@epic-web/totp")>();
  return {
    ...real,
    verifyTOTP: async (options: Parameters<typeof real.verifyTOTP>[0]) => {
      const hold = gate.hold;
      if (hold) {
        gate.hold = null;
        gate.entered();
        await hold;
      }
      return real.verifyTOTP(options);
    },
  };
});

const FREEZE_AFTER = 3;
const options = { freezeAfter: FREEZE_AFTER, appUrl: "https://studio.example" };

async function account() {
  const user = await createUser(db);
  const { secret, recovery } = enableTwoFactor(db, user.id, {
    recovery: [`rc${user.id}a-xxxxx`, `rc${user.id}b-yyyyy`],
  });
  const right = await currentCode(secret);
  const wrong = right === "000000" ? "111111" : "000000";
  return { user, secret, recovery, right, wrong };
}

const failures = (userId: number) =>
  db.select().from(users).where(eq(users.id, userId)).get()?.twoFactorFailures;
const mails = (to: string) =>
  db
    .select({ kind: emailOutbox.kind, subject: emailOutbox.subject, text: emailOutbox.text })
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, to))
    .all();

describe("wrong codes in a row", () => {
  it("freeze the app's codes: the right one is refused, a recovery code signs in and thaws them", async () => {
    const { user, right, wrong, recovery } = await account();
    for (let i = 1; i < FREEZE_AFTER; i++) {
      expect(await proveSignInCode(user.id, wrong, options)).toBe("wrong");
    }
    expect(await proveSignInCode(user.id, wrong, options)).toBe("frozen");
    expect(await proveSignInCode(user.id, right, options)).toBe("frozen");
    expect(failures(user.id)).toBe(FREEZE_AFTER + 1);

    expect(await proveSignInCode(user.id, recovery[0] ?? "", options)).toBe("recovery");
    expect(failures(user.id)).toBe(0);
    expect(await proveSignInCode(user.id, right, options)).toBe("totp");
  });

  it("start again from none after a right code", async () => {
    const { user, right, wrong } = await account();
    for (let i = 1; i < FREEZE_AFTER; i++) await proveSignInCode(user.id, wrong, options);
    expect(await proveSignInCode(user.id, right, options)).toBe("totp");
    expect(failures(user.id)).toBe(0);
    expect(await proveSignInCode(user.id, wrong, options)).toBe("wrong");
  });

  it("e-mail the owner once for the first wrong code and once when the codes freeze", async () => {
    const { user, wrong, recovery } = await account();
    expect(mails(user.email)).toEqual([]);
    await proveSignInCode(user.id, wrong, options);
    expect(mails(user.email)).toEqual([
      expect.objectContaining({
        kind: "two-factor-wrong-code",
        subject: "A wrong sign-in code was entered for your account",
      }),
    ]);
    for (let i = 0; i < FREEZE_AFTER + 5; i++) await proveSignInCode(user.id, wrong, options);
    await proveSignInCode(user.id, "zzzzz-zzzzz", options);
    const sent = mails(user.email);
    expect(sent.map((mail) => mail.kind)).toEqual(["two-factor-wrong-code", "two-factor-frozen"]);
    expect(sent[0]?.text).toContain("Change it now");
    expect(sent[1]?.text).toContain(`${FREEZE_AFTER} wrong two-factor codes were entered in a row`);
    expect(sent[1]?.text).toContain("https://studio.example/dashboard?tab=profile");

    // A recovery code ends the run: the next wrong code is news again.
    await proveSignInCode(user.id, recovery[0] ?? "", options);
    await proveSignInCode(user.id, wrong, options);
    expect(mails(user.email)).toHaveLength(3);
  });

  it("count a code tried while another is being checked: the right code in the gap is refused", async () => {
    const { user, right, wrong } = await account();
    db.update(users)
      .set({ twoFactorFailures: FREEZE_AFTER - 1 })
      .where(eq(users.id, user.id))
      .run();
    let release = () => {};
    gate.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inGap = new Promise<void>((resolve) => {
      gate.entered = resolve;
    });
    const first = proveSignInCode(user.id, wrong, options);
    await inGap;
    // The wrong code is counted and held in its check; the right one comes now.
    const second = await proveSignInCode(user.id, right, options);
    release();
    expect([await first, second]).toEqual(["frozen", "frozen"]);
    expect(failures(user.id)).toBe(FREEZE_AFTER + 1);
    expect(mails(user.email).map((mail) => mail.kind)).toEqual(["two-factor-frozen"]);
  });
});
