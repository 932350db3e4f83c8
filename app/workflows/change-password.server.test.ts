import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { signIns, users } from "#db/schema";
import { db } from "#app/db.server";
import { WRONG_CURRENT_PASSWORD } from "#app/domain/account";
import type { Refusal } from "#app/domain/refusal";
import { storedSignInId } from "#app/models/sign-in.server";
import { hashPassword, passwordMatches } from "#app/models/user.server";
import { changePassword } from "#app/workflows/change-password.server";

/**
 * The password change against a real, freshly migrated SQLite file: the current password is
 * proven, every other sign-in ends, and of two changes racing from one proven password only
 * one is stored.
 */
const PASSWORD = "the-current-secret";
let counter = 0;

async function makeUser() {
  counter += 1;
  const user = db
    .insert(users)
    .values({
      username: `changer_${counter}`,
      passwordHash: await hashPassword(PASSWORD),
      firstName: "Pat",
      lastName: "Word",
      phoneNumber: "404-555-0100",
      email: `changer${counter}@example.com`,
    })
    .returning()
    .get();
  for (const id of [`old_a_${counter}`, `old_b_${counter}`]) {
    db.insert(signIns)
      .values({ id, userId: user.id, expiresAt: Date.now() + 60_000 })
      .run();
  }
  return user;
}

const signInIds = (userId: number) =>
  db
    .select({ id: signIns.id })
    .from(signIns)
    .where(eq(signIns.userId, userId))
    .all()
    .map((row) => row.id);

const storedHash = (userId: number) =>
  db.select().from(users).where(eq(users.id, userId)).get()?.passwordHash ?? "";

describe("changing the password", () => {
  it("stores the new one and leaves only a fresh sign-in", async () => {
    const user = await makeUser();
    const signInId = await changePassword(user.id, PASSWORD, "a-brand-new-secret", false);
    // The table holds the new cookie's hash, not the cookie.
    expect(signInIds(user.id)).toEqual([storedSignInId(signInId)]);
    expect(await passwordMatches(storedHash(user.id), "a-brand-new-secret")).toBe(true);
  });

  it("refuses a wrong current password and changes nothing", async () => {
    const user = await makeUser();
    const before = storedHash(user.id);
    await expect(
      changePassword(user.id, "not-the-secret", "a-brand-new-secret", false),
    ).rejects.toMatchObject({ kind: "wrong-password", message: WRONG_CURRENT_PASSWORD });
    expect(storedHash(user.id)).toBe(before);
    expect(signInIds(user.id)).toHaveLength(2);
  });

  it("of two changes proven with the same password at once, stores only one", async () => {
    const user = await makeUser();
    const results = await Promise.allSettled([
      changePassword(user.id, PASSWORD, "first-new-secret", false),
      changePassword(user.id, PASSWORD, "second-new-secret", false),
    ]);
    const refusals = results.flatMap((result) =>
      result.status === "rejected" ? [(result.reason as Refusal).kind] : [],
    );
    expect(refusals).toEqual(["wrong-password"]);
    const winner = results[0]?.status === "fulfilled" ? "first-new-secret" : "second-new-secret";
    expect(await passwordMatches(storedHash(user.id), winner)).toBe(true);
    expect(signInIds(user.id)).toHaveLength(1);
  });
});
