import { describe, expect, it } from "vitest";
import { db } from "#app/db.server";
import { env } from "#app/env.server";
import {
  AccountThrottle,
  checkLoginPassword,
  FORGET_AFTER_SECONDS,
  INVALID_CREDENTIALS,
  KNOWN_DEVICE_LIMIT,
  waitAfter,
} from "#app/web/login-throttle.server";
import { createUser, PASSWORD } from "#tests/factories/user";

/** A throttle on a clock the test moves. */
function throttle(limit = 3) {
  const clock = { now: 1_000_000 };
  return { accounts: new AccountThrottle(limit, () => clock.now), clock };
}

describe("AccountThrottle", () => {
  it("lets the limit's attempts through, then waits 1 minute, doubling to at most 15", () => {
    const { accounts, clock } = throttle(3);
    expect([accounts.take("ada"), accounts.take("ada"), accounts.take("ada")]).toEqual([
      null,
      null,
      null,
    ]);
    expect(accounts.take("ada")).toBe(60);
    clock.now += 30_000;
    expect(accounts.take("ada")).toBe(30);
    // Attempts refused while waiting do not lengthen the wait.
    clock.now += 30_000;
    expect(accounts.take("ada")).toBeNull();
    expect(accounts.take("ada")).toBe(120);
    clock.now += 120_000;
    expect(accounts.take("ada")).toBeNull();
    expect(accounts.take("ada")).toBe(240);
    expect([0, 1, 2, 3, 4, 5, 40].map(waitAfter)).toEqual([60, 120, 240, 480, 900, 900, 900]);
  });

  it("counts a username the way logins match it: case and surrounding spaces do not matter", () => {
    const { accounts } = throttle(2);
    accounts.take("Ada");
    accounts.take(" ADA ");
    expect(accounts.take("ada")).toBe(60);
    expect(accounts.take("grace")).toBeNull();
  });

  it("counts usernames that belong to no account just the same", () => {
    const { accounts } = throttle(1);
    expect(accounts.take("nobody-by-this-name")).toBeNull();
    expect(accounts.take("nobody-by-this-name")).toBe(60);
  });

  it("starts afresh after a right password, and forgets wrong ones a day after the last", () => {
    const { accounts, clock } = throttle(2);
    accounts.take("ada");
    accounts.clear("ADA");
    expect(accounts.take("ada")).toBeNull();
    clock.now += (FORGET_AFTER_SECONDS + 1) * 1000;
    expect(accounts.take("ada")).toBeNull();
    expect(accounts.take("ada")).toBeNull();
    expect(accounts.take("ada")).toBe(60);
  });
});

describe("AccountThrottle's memory", () => {
  it("tracks at most maxTracked usernames, forgetting the longest tracked first", () => {
    const clock = { now: 1_000_000 };
    const accounts = new AccountThrottle(1, () => clock.now, 2);
    accounts.take("ada");
    accounts.take("grace");
    accounts.take("linus"); // Ada is forgotten to make room.
    expect(accounts.take("grace")).toBe(60);
    expect(accounts.take("linus")).toBe(60);
    expect(accounts.take("ada")).toBeNull();
  });
});

describe("checkLoginPassword", () => {
  let addresses = 0;
  /** A fresh client address per attempt: only the account's limit applies. */
  const nextAddress = () => `198.51.100.${++addresses}`;

  it("refuses the attempt past LOGIN_ACCOUNT_LIMIT from fresh addresses, a right password exactly like a wrong one", async () => {
    const user = await createUser(db, {});
    const answers = [];
    for (let i = 0; i < env.LOGIN_ACCOUNT_LIMIT; i++) {
      answers.push(await checkLoginPassword(nextAddress(), user.username, "wrong-guess-xyz", null));
    }
    expect(answers.every((answer) => !answer.ok && answer.status === 401)).toBe(true);
    const wrong = await checkLoginPassword(
      nextAddress(),
      user.username.toUpperCase(),
      "nope-nope-1",
      null,
    );
    const right = await checkLoginPassword(nextAddress(), user.username, PASSWORD, null);
    expect(wrong).toEqual({
      ok: false,
      status: 429,
      message: "Too many attempts. Please try again in 1 minute.",
      retryAfter: expect.any(Number),
    });
    expect(right).toEqual(wrong);
  });

  it("signs in with the right password before the limit, and that clears the count", async () => {
    const user = await createUser(db, {});
    for (let i = 0; i < env.LOGIN_ACCOUNT_LIMIT - 1; i++) {
      await checkLoginPassword(nextAddress(), user.username, "wrong-guess-xyz", null);
    }
    const right = await checkLoginPassword(nextAddress(), user.username, PASSWORD, null);
    expect(right).toEqual({ ok: true, user: expect.objectContaining({ id: user.id }) });
    const again = await checkLoginPassword(nextAddress(), user.username, "wrong-guess-xyz", null);
    expect(again).toMatchObject({ ok: false, status: 401, message: INVALID_CREDENTIALS });
  });

  it("counts IPv6 clients by their /64 against the per-address limit", async () => {
    const answers = [];
    for (let i = 1; i <= env.LOGIN_RATE_LIMIT + 1; i++) {
      answers.push(
        await checkLoginPassword(`2001:db8:77:1::${i.toString(16)}`, `someone${i}`, "x", null),
      );
    }
    expect(answers.slice(0, -1).every((answer) => !answer.ok && answer.status === 401)).toBe(true);
    expect(answers.at(-1)).toMatchObject({ ok: false, status: 429 });
    const elsewhere = await checkLoginPassword("2001:db8:77:2::1", "someone", "x", null);
    expect(elsewhere).toMatchObject({ ok: false, status: 401 });
  });
});

describe("checkLoginPassword from a known device", () => {
  let addresses = 0;
  const nextAddress = () => `198.51.101.${++addresses}`;
  const device = (userId: number, id = "0123456789abcdef0123456789abcdef") => ({ userId, id });

  /** A stranger spends the username's whole budget, from fresh addresses. */
  async function lockOut(username: string) {
    for (let i = 0; i <= env.LOGIN_ACCOUNT_LIMIT; i++) {
      await checkLoginPassword(nextAddress(), username, "stranger-guess", null);
    }
    const locked = await checkLoginPassword(nextAddress(), username, PASSWORD, null);
    expect(locked).toMatchObject({ ok: false, status: 429 });
  }

  it("signs the owner in from their device while a stranger has the username locked out", async () => {
    const user = await createUser(db, {});
    await lockOut(user.username);
    const owner = await checkLoginPassword(nextAddress(), user.username, PASSWORD, device(user.id));
    expect(owner).toMatchObject({ ok: true, user: { id: user.id } });
    // The stranger's lockout stands.
    const stranger = await checkLoginPassword(nextAddress(), user.username, PASSWORD, null);
    expect(stranger).toMatchObject({ ok: false, status: 429 });
  });

  it("gives a device a few wrong passwords of its own, then it waits like a username", async () => {
    const user = await createUser(db, {});
    const mine = device(user.id, "fedcba9876543210fedcba9876543210");
    for (let i = 0; i < KNOWN_DEVICE_LIMIT; i++) {
      const wrong = await checkLoginPassword(nextAddress(), user.username, "typo-typo", mine);
      expect(wrong).toMatchObject({ ok: false, status: 401 });
    }
    const waiting = await checkLoginPassword(nextAddress(), user.username, PASSWORD, mine);
    expect(waiting).toMatchObject({ ok: false, status: 429 });
    // Its wrong passwords were not the username's: without the cookie the budget is whole.
    const elsewhere = await checkLoginPassword(nextAddress(), user.username, PASSWORD, null);
    expect(elsewhere).toMatchObject({ ok: true });
  });

  it("does not help guesses against another account", async () => {
    const [owner, other] = [await createUser(db, {}), await createUser(db, {})];
    await lockOut(other.username);
    const borrowed = device(owner.id, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    const answer = await checkLoginPassword(nextAddress(), other.username, PASSWORD, borrowed);
    expect(answer).toMatchObject({ ok: false, status: 429 });
  });
});
