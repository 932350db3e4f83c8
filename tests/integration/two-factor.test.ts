import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { recoveryCodes, users } from "#db/schema";
import { currentCode, enableTwoFactor, storedTotpSecret } from "#tests/factories/two-factor";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * Two-factor sign-in against the production build (docs/product.md "Accounts"): POST
 * /api/login's 401 `twoFactorRequired`, the sign-in page's code step, setting it up and turning
 * it off from Profile Settings; every refusal writes nothing. The limits and the staff rules
 * have their own server (two-factor-staff.test.ts).
 */
const server = serverForThisFile();
const { db, signUp, snapshot } = actorsFor(server);

const TWO_FACTOR_REQUIRED =
  "Enter the 6-digit code from your authenticator app, or one of your recovery codes.";
const INVALID_CODE =
  "That code is not valid, or it was already used. Wait for the next code, or use a recovery code.";

function apiLogin(body: Record<string, unknown>) {
  return fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url },
    body: JSON.stringify(body),
  });
}

function postForm(path: string, fields: Record<string, string>, cookie = "") {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, Cookie: cookie },
    body: new URLSearchParams(fields),
  });
}

const get = (path: string, cookie: string) =>
  fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });

/** A customer with two-factor on; the password is the registration payload's. */
async function customerWithTwoFactor() {
  const actor = await signUp();
  const { secret, recovery } = enableTwoFactor(db(), actor.id, {
    recovery: [`rc${actor.id}a-xxxxx`, `rc${actor.id}b-yyyyy`],
  });
  const password = String(registrationPayload().password);
  return { ...actor, secret, recovery, password };
}

/** A refused request: its answer, and proof it wrote nothing. */
async function refused(send: () => Promise<Response>) {
  const before = snapshot();
  const response = await send();
  expect(snapshot()).toEqual(before);
  expect(response.headers.getSetCookie().join()).not.toMatch(/__session=[^;]/);
  return response;
}

describe("POST /api/login with two-factor on", () => {
  let account: Awaited<ReturnType<typeof customerWithTwoFactor>>;
  beforeAll(async () => {
    account = await customerWithTwoFactor();
  });
  const credentials = () => ({ username: account.username, password: account.password });

  it("answers 401 twoFactorRequired until the code comes, and starts no session", async () => {
    const response = await refused(() => apiLogin(credentials()));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      message: TWO_FACTOR_REQUIRED,
      twoFactorRequired: true,
    });
  });

  it("refuses a wrong code, and a wrong password is refused as before, code or not", async () => {
    const code = await currentCode(account.secret);
    const wrong = code === "000000" ? "111111" : "000000";
    const response = await refused(() => apiLogin({ ...credentials(), code: wrong }));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: INVALID_CODE, twoFactorRequired: true });

    const badPassword = await refused(() =>
      apiLogin({ username: account.username, password: "not-the-password", code }),
    );
    expect(badPassword.status).toBe(401);
    expect(await badPassword.json()).toEqual({ message: "Invalid username or password" });
  });

  it("signs in with the current code once; the same code again is refused", async () => {
    const code = await currentCode(account.secret);
    const response = await apiLogin({ ...credentials(), code });
    expect(response.status).toBe(200);
    expect((await response.json()).username).toBe(account.username);
    const me = await get("/api/user", cookiesFrom(response));
    expect(me.status).toBe(200);

    const again = await refused(() => apiLogin({ ...credentials(), code }));
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ message: INVALID_CODE, twoFactorRequired: true });
  });

  it("signs in with a recovery code, once", async () => {
    const code = account.recovery[0] ?? "";
    const response = await apiLogin({ ...credentials(), code: code.toUpperCase() });
    expect(response.status).toBe(200);
    const left = db()
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, account.id))
      .all();
    expect(left).toHaveLength(1);
    const again = await refused(() => apiLogin({ ...credentials(), code }));
    expect(again.status).toBe(401);
  });

  it("refuses a code of the wrong type with our message", async () => {
    const response = await refused(() => apiLogin({ ...credentials(), code: 123456 }));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toBe(TWO_FACTOR_REQUIRED);
  });

  it("asks nothing more of an account without two-factor", async () => {
    const plain = await signUp();
    const response = await apiLogin({
      username: plain.username,
      password: String(registrationPayload().password),
    });
    expect(response.status).toBe(200);
  });
});

describe("the sign-in page's code step", () => {
  it("holds no session between the password and the code, then signs in", async () => {
    const account = await customerWithTwoFactor();
    const credentials = { intent: "login", username: account.username, password: account.password };

    const before = snapshot();
    const step1 = await postForm("/auth", credentials);
    expect(snapshot()).toEqual(before);
    expect(step1.status).toBe(302);
    expect(step1.headers.get("Location")).toBe("/auth");
    const pending = cookiesFrom(step1);
    expect(pending).toMatch(/__2fa_pending=/);
    expect(pending).not.toMatch(/__session=/);
    // The half-signed-in cookie is not a session.
    expect((await get("/api/user", pending)).status).toBe(401);
    expect((await get("/dashboard", pending)).headers.get("Location")).toBe("/auth");

    const page = await get("/auth", pending);
    const html = await page.text();
    expect(html).toContain("Two-factor sign-in");
    expect(html).toContain("Authentication code");

    const wrong = await refused(() =>
      postForm("/auth", { intent: "code", code: "000000" }, pending),
    );
    expect([401]).toContain(wrong.status);
    expect(await wrong.text()).toContain("That code is not valid");

    const code = await currentCode(account.secret);
    const step2 = await postForm("/auth", { intent: "code", code }, pending);
    expect(step2.status).toBe(302);
    expect(step2.headers.get("Location")).toBe("/");
    const signedIn = cookiesFrom(step2);
    expect(signedIn).toMatch(/__session=[^;]/);
    expect((await get("/api/user", signedIn)).status).toBe(200);
  });

  it("refuses a code without a pending sign-in, or with a forged one, and writes nothing", async () => {
    const account = await customerWithTwoFactor();
    const code = await currentCode(account.secret);
    const forged = `__2fa_pending=${Buffer.from(
      JSON.stringify({ userId: account.id, expiresAt: Date.now() + 60_000 }),
    ).toString("base64")}`;
    for (const cookie of ["", forged]) {
      const response = await refused(() => postForm("/auth", { intent: "code", code }, cookie));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/auth");
    }
  });
});

describe("setting up two-factor from Profile Settings", () => {
  let customer: Actor;
  beforeAll(async () => {
    customer = await signUp();
  });

  it("links to the setup page from the profile tab", async () => {
    const html = await (await get("/dashboard?tab=profile", customer.cookie)).text();
    expect(html).toContain('href="/dashboard/two-factor"');
    expect(html).toContain("Set up two-factor sign-in");
  });

  it("shows a QR code and the secret, refuses a wrong code, confirms with the right one", async () => {
    const visit = await refused(() => get("/dashboard/two-factor", customer.cookie));
    expect(await visit.text()).toContain("Set Up Two-Factor Sign-In");
    const start = await postForm("/dashboard/two-factor", { intent: "start" }, customer.cookie);
    expect(start.status).toBe(302);
    expect(start.headers.get("Location")).toBe("/dashboard/two-factor");
    const page = await get("/dashboard/two-factor", customer.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    const secret = storedTotpSecret(db(), customer.id);
    expect(html).toContain(secret);
    expect(html).toContain('aria-label="QR code for your authenticator app"');
    expect(html).toMatch(/<div role="img"[^>]*><svg xmlns/);

    const code = await currentCode(secret);
    const wrong = code === "000000" ? "111111" : "000000";
    const refusedReply = await refused(() =>
      postForm("/dashboard/two-factor", { intent: "confirm", code: wrong }, customer.cookie),
    );
    expect(refusedReply.status).toBe(400);

    const confirmed = await postForm(
      "/dashboard/two-factor",
      { intent: "confirm", code },
      customer.cookie,
    );
    expect(confirmed.status).toBe(200);
    const shown = await confirmed.text();
    const list = shown.match(/<ul aria-label="Recovery codes"[^>]*>(.*?)<\/ul>/)?.[1] ?? "";
    const codes = list.match(/[a-z2-9]{5}-[a-z2-9]{5}/g) ?? [];
    expect(new Set(codes).size).toBe(10);
    const stored = db()
      .select({ hash: recoveryCodes.codeHash })
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, customer.id))
      .all();
    expect(stored).toHaveLength(10);
    expect(stored.map((r) => r.hash)).not.toContain(codes[0]);
    // Shown once: the page afterwards says it is on, without the codes.
    const after = await (await get("/dashboard/two-factor", customer.cookie)).text();
    expect(after).toContain("Two-factor sign-in is on");
    expect(after).not.toContain(codes[0]);
  });

  it("turns off only with the password or a code", async () => {
    const row = () => db().select().from(users).where(eq(users.id, customer.id)).get();
    expect(row()?.totpEnabledAt).not.toBeNull();
    const wrong = await refused(() =>
      postForm(
        "/dashboard/two-factor",
        { intent: "disable", proof: "not-my-password" },
        customer.cookie,
      ),
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("That password or code is not right.");

    const off = await postForm(
      "/dashboard/two-factor",
      { intent: "disable", proof: String(registrationPayload().password) },
      customer.cookie,
    );
    expect(off.status).toBe(302);
    expect(row()).toMatchObject({ totpSecret: null, totpEnabledAt: null });
  });

  it("sends a visitor to sign in", async () => {
    const response = await get("/dashboard/two-factor", "");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/auth");
  });
});
