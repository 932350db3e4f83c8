import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { passkeys, webauthnChallenges } from "#db/schema";
import { db } from "#app/db.server";
import {
  CHALLENGE_TTL_MS,
  PASSKEY_ALREADY_REGISTERED,
  PASSKEY_CHALLENGE_EXPIRED,
  PASSKEY_UNKNOWN,
  PASSKEY_VERIFICATION_FAILED,
} from "#app/domain/passkey";
import { env } from "#app/env.server";
import { hasPasskey, listPasskeys } from "#app/models/passkey.server";
import {
  addPasskey,
  registrationOptions,
  removePasskey,
  signInOptions,
  signInWithPasskey,
} from "#app/workflows/passkeys.server";
import { softAuthenticator } from "#tests/factories/soft-authenticator";
import { createUser } from "#tests/factories/user";

/** Passkeys against a real, freshly migrated SQLite file and a software authenticator. */
afterEach(() => {
  vi.useRealTimers();
});

const origin = new URL(env.APP_URL).origin;
const challengeRows = () => db.select().from(webauthnChallenges).all();
const passkeyRow = (id: number) => db.select().from(passkeys).where(eq(passkeys.id, id)).get();
type Answer = Parameters<typeof addPasskey>[1]["response"];
type SignInAnswer = Parameters<typeof signInWithPasskey>[0]["response"];

/** A customer with one passkey on `authenticator`. */
async function withPasskey(authenticator = softAuthenticator(origin)) {
  const user = await createUser(db);
  const { challengeId, options } = await registrationOptions(user);
  const added = await addPasskey(user.id, {
    challengeId,
    response: authenticator.register(options) as Answer,
    name: "Laptop",
  });
  if (!added.ok) throw new Error(added.message);
  return { user, authenticator, passkeyId: added.id };
}

async function signIn(authenticator: ReturnType<typeof softAuthenticator>) {
  const { challengeId, options } = await signInOptions();
  return signInWithPasskey({
    challengeId,
    response: authenticator.signIn(options) as SignInAnswer,
  });
}

describe("adding a passkey", () => {
  it("stores it under its name, and the challenge answers once", async () => {
    const user = await createUser(db);
    const authenticator = softAuthenticator(origin);
    const { challengeId, options } = await registrationOptions(user);
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    });
    expect(options.rp.id).toBe(new URL(env.APP_URL).hostname);
    const response = authenticator.register(options) as Answer;
    const added = await addPasskey(user.id, { challengeId, response, name: "Laptop" });
    expect(added.ok).toBe(true);
    expect(hasPasskey(user.id)).toBe(true);
    expect(listPasskeys(user.id)).toEqual([
      expect.objectContaining({ name: "Laptop", lastUsedAt: null }),
    ]);
    expect(challengeRows().some((row) => row.id === challengeId)).toBe(false);

    const again = await addPasskey(user.id, { challengeId, response, name: "Again" });
    expect(again).toEqual({ ok: false, status: 400, message: PASSKEY_CHALLENGE_EXPIRED });
    expect(listPasskeys(user.id)).toHaveLength(1);
  });

  it("refuses another account's challenge and leaves it for its owner", async () => {
    const owner = await createUser(db);
    const other = await createUser(db);
    const { challengeId, options } = await registrationOptions(owner);
    const response = softAuthenticator(origin).register(options) as Answer;
    const refused = await addPasskey(other.id, { challengeId, response, name: "Mine" });
    expect(refused).toEqual({ ok: false, status: 400, message: PASSKEY_CHALLENGE_EXPIRED });
    expect(hasPasskey(other.id)).toBe(false);
    expect((await addPasskey(owner.id, { challengeId, response, name: "Mine" })).ok).toBe(true);
  });

  it("refuses an expired challenge, and a new one sweeps it away", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const user = await createUser(db);
    const { challengeId, options } = await registrationOptions(user);
    vi.setSystemTime(Date.now() + CHALLENGE_TTL_MS + 1);
    const response = softAuthenticator(origin).register(options) as Answer;
    expect(await addPasskey(user.id, { challengeId, response, name: "Late" })).toEqual({
      ok: false,
      status: 400,
      message: PASSKEY_CHALLENGE_EXPIRED,
    });
    expect(challengeRows().some((row) => row.id === challengeId)).toBe(true);
    await signInOptions();
    expect(challengeRows().some((row) => row.id === challengeId)).toBe(false);
  });

  it("refuses an answer without user verification, from another origin, or already added", async () => {
    const { user, authenticator } = await withPasskey();
    for (const answer of [{ verified: false }, { from: "https://evil.example" }]) {
      const { challengeId, options } = await registrationOptions(user);
      const response = softAuthenticator(origin).register(options, answer) as Answer;
      expect(await addPasskey(user.id, { challengeId, response, name: "Bad" })).toEqual({
        ok: false,
        status: 400,
        message: PASSKEY_VERIFICATION_FAILED,
      });
      // A refused answer leaves its challenge: nothing changed.
      expect(challengeRows().some((row) => row.id === challengeId)).toBe(true);
    }
    const other = await createUser(db);
    const { challengeId, options } = await registrationOptions(other);
    const response = authenticator.register(options) as Answer;
    expect(await addPasskey(other.id, { challengeId, response, name: "Same" })).toEqual({
      ok: false,
      status: 409,
      message: PASSKEY_ALREADY_REGISTERED,
    });
    expect(listPasskeys(user.id)).toHaveLength(1);
    expect(hasPasskey(other.id)).toBe(false);
  });
});

describe("signing in with a passkey", () => {
  it("names the passkey's account, records the counter and when, and answers once", async () => {
    const { user, authenticator, passkeyId } = await withPasskey();
    const { challengeId, options } = await signInOptions();
    expect(options).toMatchObject({ userVerification: "required", allowCredentials: [] });
    const response = authenticator.signIn(options) as SignInAnswer;
    expect(await signInWithPasskey({ challengeId, response })).toEqual({
      ok: true,
      userId: user.id,
    });
    expect(passkeyRow(passkeyId)).toMatchObject({ counter: 1, lastUsedAt: expect.any(Number) });
    expect(await signInWithPasskey({ challengeId, response })).toEqual({
      ok: false,
      status: 400,
      message: PASSKEY_CHALLENGE_EXPIRED,
    });
  });

  it("refuses a counter that does not go up (a cloned authenticator), changing nothing", async () => {
    const { authenticator, passkeyId } = await withPasskey();
    expect((await signIn(authenticator)).ok).toBe(true);
    expect((await signIn(authenticator)).ok).toBe(true);
    const before = passkeyRow(passkeyId);
    expect(before?.counter).toBe(2);
    authenticator.setCounter(0);
    expect(await signIn(authenticator)).toEqual({
      ok: false,
      status: 401,
      message: PASSKEY_VERIFICATION_FAILED,
    });
    expect(passkeyRow(passkeyId)).toEqual(before);
  });

  it("refuses an unknown passkey, one without user verification, and another account's handle", async () => {
    expect(await signIn(softAuthenticator(origin))).toEqual({
      ok: false,
      status: 401,
      message: PASSKEY_UNKNOWN,
    });
    const { authenticator, passkeyId } = await withPasskey();
    const { challengeId, options } = await signInOptions();
    const unverified = authenticator.signIn(options, { verified: false }) as SignInAnswer;
    expect((await signInWithPasskey({ challengeId, response: unverified })).ok).toBe(false);
    const wrongUser = authenticator.signIn(options) as SignInAnswer;
    wrongUser.response.userHandle = Buffer.from("999999").toString("base64url");
    expect(await signInWithPasskey({ challengeId, response: wrongUser })).toEqual({
      ok: false,
      status: 401,
      message: PASSKEY_VERIFICATION_FAILED,
    });
    expect(passkeyRow(passkeyId)?.lastUsedAt).toBeNull();
  });

  it("does not sign in with a registration's challenge", async () => {
    const { user, authenticator } = await withPasskey();
    const { challengeId, options } = await registrationOptions(user);
    const response = authenticator.signIn(options) as SignInAnswer;
    expect(await signInWithPasskey({ challengeId, response })).toEqual({
      ok: false,
      status: 400,
      message: PASSKEY_CHALLENGE_EXPIRED,
    });
  });

  it("stops signing in once the passkey is removed, and only its owner removes it", async () => {
    const { user, authenticator, passkeyId } = await withPasskey();
    const other = await createUser(db);
    expect(removePasskey(other.id, passkeyId)).toBe(false);
    expect(removePasskey(user.id, passkeyId)).toBe(true);
    expect(await signIn(authenticator)).toMatchObject({ ok: false, message: PASSKEY_UNKNOWN });
  });
});
