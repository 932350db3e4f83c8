import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { passkeys, signIns } from "#db/schema";
import { env } from "#app/env.server";
import { type SoftAuthenticator, softAuthenticator } from "#tests/factories/soft-authenticator";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { cookiesFrom } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * Passkeys against the app in process (docs/product.md "Accounts and sign-ins"):
 * added from Profile Settings' JSON, signing in on /auth without a username, removed by a
 * plain form post; every refusal is our message and writes nothing. A software authenticator
 * (tests/factories/soft-authenticator.ts) plays the browser.
 */
const server = appForThisFile();
const { db, signUp, snapshot } = actorsFor(server);

/** The relying party is APP_URL (by default http://localhost:PORT), not the address dialled. */
const appOrigin = () => env.APP_URL;

type Json = Record<string, unknown>;

async function postJson(path: string, body: unknown, cookie = "") {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/json", Origin: server.url, Cookie: cookie },
    body: JSON.stringify(body),
  });
  return { response, json: (await response.json()) as Json };
}

function postForm(path: string, fields: Record<string, string>, cookie: string) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, Cookie: cookie },
    body: new URLSearchParams(fields),
  });
}

type Started = { challengeId: string; options: { challenge: string; user: { id: string } } };

async function startAdding(actor: Actor, name = "Laptop") {
  const { response, json } = await postJson(
    "/dashboard/passkeys",
    { intent: "options", name },
    actor.cookie,
  );
  expect(response.status).toBe(200);
  return json as unknown as Started;
}

/** `actor` answers the prompt `started` with `authenticator`'s new passkey. */
function answerAdding(
  actor: Actor,
  started: Started,
  authenticator: SoftAuthenticator,
  name = "Laptop",
) {
  return postJson(
    "/dashboard/passkeys",
    {
      intent: "verify",
      name,
      challengeId: started.challengeId,
      response: authenticator.register(started.options),
    },
    actor.cookie,
  );
}

async function addPasskey(actor: Actor, authenticator: SoftAuthenticator, name = "Laptop") {
  return answerAdding(actor, await startAdding(actor, name), authenticator, name);
}

async function startSignIn() {
  const { response, json } = await postJson("/auth/passkey", { intent: "options" });
  expect(response.status).toBe(200);
  return json as unknown as Started;
}

/** The sign-in prompt `started` answered by `authenticator`. */
function answerSignIn(started: Started, authenticator: SoftAuthenticator) {
  const response = authenticator.signIn(started.options);
  return postJson("/auth/passkey", {
    intent: "verify",
    challengeId: started.challengeId,
    response,
  });
}

/** A refused request: its status and message, and proof it wrote nothing. */
async function refused(send: () => Promise<{ response: Response; json: Json }>) {
  const before = snapshot();
  const { response, json } = await send();
  expect(snapshot()).toEqual(before);
  expect(response.headers.getSetCookie().join()).not.toMatch(/__session=[^;]/);
  return { status: response.status, message: json.message };
}

const latestSignIn = (userId: number) =>
  db()
    .select()
    .from(signIns)
    .where(eq(signIns.userId, userId))
    .orderBy(desc(signIns.createdAt))
    .get();

describe("a passkey from Profile Settings to the sign-in page and back", () => {
  let actor: Actor;
  let authenticator: SoftAuthenticator;
  beforeAll(async () => {
    actor = await signUp();
    authenticator = softAuthenticator(appOrigin());
  });

  it("adds a passkey under its name and lists it with its dates", async () => {
    const { response, json } = await addPasskey(actor, authenticator, "  Work laptop  ");
    expect(response.status).toBe(200);
    expect(json).toEqual({ id: expect.any(Number) });
    const page = await fetch(`${server.url}/dashboard?tab=profile`, {
      headers: { Cookie: actor.cookie },
    });
    const html = await page.text();
    expect(html).toContain("Work laptop");
    expect(html).toMatch(/Added [A-Z][a-z]+ \d{1,2}, \d{4} · Last used never/);
  });

  it("signs in with it, no username typed, as both factors", async () => {
    const started = await startSignIn();
    const { response, json } = await answerSignIn(started, authenticator);
    expect(response.status).toBe(200);
    expect(json).toEqual({ redirectTo: "/" });
    const cookie = cookiesFrom(response);
    expect(cookie).toMatch(/__session=[A-Za-z0-9_-]{43}/);
    expect(latestSignIn(actor.id)?.secondFactor).toBe(true);
    const me = await fetch(`${server.url}/api/user`, { headers: { Cookie: cookie } });
    expect(((await me.json()) as Json).id).toBe(actor.id);
    const row = db().select().from(passkeys).where(eq(passkeys.userId, actor.id)).get();
    expect(row).toMatchObject({ counter: 1, lastUsedAt: expect.any(Number) });
  });

  it("removes it with a plain form post, after which it signs no one in", async () => {
    const row = db().select().from(passkeys).where(eq(passkeys.userId, actor.id)).get();
    const response = await postForm(
      "/dashboard/passkeys",
      { intent: "remove", passkeyId: String(row?.id) },
      actor.cookie,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard?tab=profile");
    expect(db().select().from(passkeys).where(eq(passkeys.userId, actor.id)).all()).toEqual([]);
    const started = await startSignIn();
    const answer = await refused(() => answerSignIn(started, authenticator));
    expect(answer).toEqual({
      status: 401,
      message:
        "This passkey is not known here. Sign in with your password, then add the passkey on Profile Settings.",
    });
  });
});

describe("refusals: our message, nothing written", () => {
  const EXPIRED = "The passkey request expired or was already used. Please try again.";
  const FAILED =
    "The passkey could not be verified. Please try again, and confirm with your fingerprint, face or PIN.";

  it("refuses a name that is blank or longer than 50 characters before any prompt", async () => {
    const actor = await signUp();
    for (const [name, message] of [
      ["   ", "Give the passkey a name, such as the device it is on."],
      ["x".repeat(51), "A passkey's name is at most 50 characters."],
    ]) {
      const answer = await refused(() =>
        postJson("/dashboard/passkeys", { intent: "options", name }, actor.cookie),
      );
      expect(answer).toEqual({ status: 400, message });
    }
  });

  it("refuses a passkey made for another site, and the request's Host is not the site", async () => {
    const actor = await signUp();
    // The address the test dials (127.0.0.1) is not APP_URL's host (localhost).
    const started = await startAdding(actor);
    const phished = softAuthenticator(server.url).register(started.options);
    const answer = await refused(() =>
      postJson(
        "/dashboard/passkeys",
        { intent: "verify", name: "Laptop", challengeId: started.challengeId, response: phished },
        actor.cookie,
      ),
    );
    expect(answer).toEqual({ status: 400, message: FAILED });
  });

  it("refuses a passkey already on an account, and another account's challenge", async () => {
    const owner = await signUp();
    const other = await signUp();
    const authenticator = softAuthenticator(appOrigin());
    expect((await addPasskey(owner, authenticator)).response.status).toBe(200);
    const started = await startAdding(other);
    const again = await refused(() => answerAdding(other, started, authenticator));
    expect(again).toEqual({ status: 409, message: "This passkey is already added to an account." });

    const ownersChallenge = await startAdding(owner);
    const stolen = await refused(() =>
      answerAdding(other, ownersChallenge, softAuthenticator(appOrigin())),
    );
    expect(stolen).toEqual({ status: 400, message: EXPIRED });
  });

  it("answers a sign-in challenge once: a replayed answer is refused", async () => {
    const actor = await signUp();
    const authenticator = softAuthenticator(appOrigin());
    await addPasskey(actor, authenticator);
    const started = await startSignIn();
    const body = {
      intent: "verify",
      challengeId: started.challengeId,
      response: authenticator.signIn(started.options),
    };
    expect((await postJson("/auth/passkey", body)).response.status).toBe(200);
    expect(await refused(() => postJson("/auth/passkey", body))).toEqual({
      status: 400,
      message: EXPIRED,
    });
  });

  it("refuses a counter that went back (a cloned authenticator)", async () => {
    const actor = await signUp();
    const authenticator = softAuthenticator(appOrigin());
    await addPasskey(actor, authenticator);
    const first = await startSignIn();
    const ok = await answerSignIn(first, authenticator);
    expect(ok.response.status).toBe(200);
    authenticator.setCounter(0);
    const second = await startSignIn();
    const answer = await refused(() => answerSignIn(second, authenticator));
    expect(answer).toEqual({ status: 401, message: FAILED });
  });

  it("refuses removing another account's passkey", async () => {
    const owner = await signUp();
    const other = await signUp();
    const { json } = await addPasskey(owner, softAuthenticator(appOrigin()));
    const before = snapshot();
    const response = await postForm(
      "/dashboard/passkeys",
      { intent: "remove", passkeyId: String(json.id) },
      other.cookie,
    );
    expect(response.status).toBe(302);
    expect(snapshot()).toEqual(before);
    expect(response.headers.getSetCookie().join()).toContain("toast-session=");
  });

  it("refuses a malformed answer in our words", async () => {
    const started = await startSignIn();
    const answer = await refused(() =>
      postJson("/auth/passkey", {
        intent: "verify",
        challengeId: started.challengeId,
        response: 7,
      }),
    );
    expect(answer).toEqual({ status: 400, message: FAILED });
  });
});
