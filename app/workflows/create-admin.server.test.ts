import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import "#tests/setup/password-estimator";
import { users } from "#db/schema";
import { db } from "#app/db.server";
import { createUser } from "#app/models/user.server";
import { createOrPromoteAdmin, type ExistingAccount } from "#app/workflows/create-admin.server";

/**
 * create-admin never makes an account staff on its name alone (docs/deploy.md "First deploy"):
 * a taken name is refused unless the operator confirms whose account it is, and a name taken
 * between the look-up and the insert is refused, not promoted.
 */
const PASSWORD = "Studio-Boss-Correct-Horse-7";
let counter = 0;

function registration(username: string) {
  return {
    username,
    password: "kindred-parable-1979",
    firstName: "Early",
    lastName: "Bird",
    phoneNumber: "404-555-0100",
    email: `${username}@example.com`,
    isStakeholder: false,
  };
}

function uniqueName() {
  counter += 1;
  return `owner_${counter}_${Math.random().toString(36).slice(2, 7)}`;
}

const isAdmin = (username: string) =>
  db.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.username, username)).get()
    ?.isAdmin;

const newAdmin = (username: string) => ({
  username,
  email: "boss@example.com",
  phoneNumber: "(404) 555-0100",
});

describe("createOrPromoteAdmin", () => {
  it("refuses a name someone registered, leaving the account a customer", async () => {
    const name = uniqueName();
    await createUser(registration(name));
    const outcome = await createOrPromoteAdmin(newAdmin(name), {
      askPassword: async () => PASSWORD,
    });
    expect(outcome).toEqual({
      ok: false,
      problems: [
        `--username: an account named ${name} already exists. To make that account an admin, run again with --promote-existing.`,
      ],
    });
    expect(isAdmin(name)).toBe(false);
  });

  it("refuses, not promotes, when the name is registered between the look-up and the insert", async () => {
    const name = uniqueName();
    const outcome = await createOrPromoteAdmin(newAdmin(name), {
      // The password is asked for after the look-up: the squatter registers meanwhile.
      askPassword: async () => {
        await createUser(registration(name));
        return PASSWORD;
      },
    });
    expect(outcome).toEqual({
      ok: false,
      problems: [
        `--username: ${name} was registered by someone else while this ran. Pick another name.`,
      ],
    });
    expect(isAdmin(name)).toBe(false);
    expect(db.select().from(users).where(eq(users.username, name)).all()).toHaveLength(1);
  });

  it("promotes with --promote-existing only after the operator saw the account and said yes", async () => {
    const name = uniqueName();
    const registered = await createUser(registration(name));
    const shown: ExistingAccount[] = [];
    const ask = (answer: boolean) => ({
      askPassword: async () => PASSWORD,
      confirmPromotion: async (account: ExistingAccount) => {
        shown.push(account);
        return answer;
      },
    });

    const declined = await createOrPromoteAdmin({ username: name }, ask(false));
    expect(declined).toEqual({
      ok: false,
      problems: [`${name} was not promoted: not confirmed.`],
    });
    expect(isAdmin(name)).toBe(false);

    const promoted = await createOrPromoteAdmin({ username: name.toUpperCase() }, ask(true));
    expect(promoted).toEqual({ ok: true, action: "promoted", id: registered.id, username: name });
    expect(isAdmin(name)).toBe(true);
    expect(shown).toHaveLength(2);
    expect(shown[0]).toMatchObject({
      id: registered.id,
      email: `${name}@example.com`,
      createdAt: registered.createdAt,
    });
  });

  it("does not create an account when asked to promote a name nobody has", async () => {
    const name = uniqueName();
    const outcome = await createOrPromoteAdmin(newAdmin(name), {
      askPassword: async () => PASSWORD,
      confirmPromotion: async () => true,
    });
    expect(outcome).toEqual({
      ok: false,
      problems: [`there is no account named ${name} to promote.`],
    });
    expect(isAdmin(name)).toBeUndefined();
  });
});
