import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { emailOutbox, recoveryCodes, users } from "#db/schema";
import { currentCode, enableTwoFactor, storedTotpSecret } from "#tests/factories/two-factor";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * Two-factor sign-in against the app in process (docs/product.md "Accounts and sign-ins"): POST
 * /api/login's 401 `twoFactorRequired`, the sign-in page's code step, setting it up and turning
 * it off from Profile Settings; every refusal writes nothing. The limits and the staff rules
 * have their own server (two-factor-staff.test.ts).
 */
const server = appForThisFile();
const { db, signUp, signUpAdmin, snapshot } = actorsFor(server);

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

const FROZEN =
  "Too many wrong codes: codes from your authenticator app no longer work for this account. Sign in with one of your recovery codes, then change your password.";
/** TWO_FACTOR_FREEZE_AFTER's default. */
const FREEZE_AFTER = 20;

const failures = (userId: number) =>
  db().select().from(users).where(eq(users.id, userId)).get()?.twoFactorFailures;

/**
 * A refused code: its answer, and proof it wrote nothing but the account's count of wrong
 * codes (one more) and perhaps the owner's e-mail.
 */
async function refusedCode(userId: number, send: () => Promise<Response>) {
  const { users: _u, email_outbox: _o, ...before } = snapshot();
  const count = failures(userId) ?? 0;
  const response = await send();
  const { users: _u2, email_outbox: _o2, ...after } = snapshot();
  expect(after).toEqual(before);
  expect(failures(userId)).toBe(count + 1);
  expect(response.headers.getSetCookie().join()).not.toMatch(/__session=[^;]/);
  return response;
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

  it("answers 401 twoFactorRequired until the code comes, and starts no sign-in", async () => {
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
    const response = await refusedCode(account.id, () =>
      apiLogin({ ...credentials(), code: wrong }),
    );
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

    const again = await refusedCode(account.id, () => apiLogin({ ...credentials(), code }));
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
    const again = await refusedCode(account.id, () => apiLogin({ ...credentials(), code }));
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
  it("holds no sign-in between the password and the code, then signs in", async () => {
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
    // The half-signed-in cookie is not a sign-in.
    expect((await get("/api/user", pending)).status).toBe(401);
    expect((await get("/dashboard", pending)).headers.get("Location")).toBe("/auth");

    const page = await get("/auth", pending);
    const html = await page.text();
    expect(html).toContain("Two-factor sign-in");
    expect(html).toContain("Authentication code");

    const wrong = await refusedCode(account.id, () =>
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

describe("wrong codes in a row (TWO_FACTOR_FREEZE_AFTER)", () => {
  /** The kinds of the e-mails written after outbox row `afterId` (every test account shares
   * one address, and this file's tests run one at a time). */
  const outboxAfter = (afterId: number) =>
    db()
      .select({ id: emailOutbox.id, kind: emailOutbox.kind })
      .from(emailOutbox)
      .all()
      .filter((row) => row.id > afterId)
      .map((row) => row.kind);
  const lastOutboxId = () =>
    Math.max(
      0,
      ...db()
        .select()
        .from(emailOutbox)
        .all()
        .map((r) => r.id),
    );

  /** An account whose app codes are frozen by FREEZE_AFTER wrong codes, form and API. */
  async function frozenAccount() {
    const account = await customerWithTwoFactor();
    const credentials = { username: account.username, password: account.password };
    const right = await currentCode(account.secret);
    const wrong = right === "000000" ? "111111" : "000000";
    const statuses: number[] = [];
    for (let i = 1; i <= FREEZE_AFTER; i++) {
      const response = await apiLogin({ ...credentials, code: wrong });
      statuses.push(response.status);
      const { message } = await response.json();
      expect(message).toBe(i < FREEZE_AFTER ? INVALID_CODE : FROZEN);
    }
    expect(statuses.every((status) => status === 401)).toBe(true);
    return { ...account, credentials, right, wrong };
  }

  it("refuses the right app code after 20 wrong ones, in our words; a recovery code signs in", async () => {
    const account = await frozenAccount();
    const rightRefused = await refusedCode(account.id, () =>
      apiLogin({ ...account.credentials, code: account.right }),
    );
    expect(rightRefused.status).toBe(401);
    expect(await rightRefused.json()).toEqual({ message: FROZEN, twoFactorRequired: true });

    // The sign-in page, as a browser without JavaScript posts it, says the same.
    const step1 = await postForm("/auth", { intent: "login", ...account.credentials });
    const pending = cookiesFrom(step1);
    const page = await refusedCode(account.id, () =>
      postForm("/auth", { intent: "code", code: account.right }, pending),
    );
    expect(page.status).toBe(401);
    expect(await page.text()).toContain("codes from your authenticator app no longer work");

    const recovered = await postForm(
      "/auth",
      { intent: "code", code: account.recovery[0] ?? "" },
      pending,
    );
    expect(recovered.status).toBe(302);
    expect(cookiesFrom(recovered)).toMatch(/__session=[^;]/);
    expect(failures(account.id)).toBe(0);
    // The app's codes work again.
    const again = await apiLogin({ ...account.credentials, code: account.right });
    expect(again.status).toBe(200);
  });

  it("e-mails the owner on the first wrong code and when the codes freeze, not per guess", async () => {
    const before = lastOutboxId();
    const account = await frozenAccount();
    for (let i = 0; i < 3; i++) {
      await apiLogin({ ...account.credentials, code: account.wrong });
    }
    expect(outboxAfter(before)).toEqual(["two-factor-wrong-code", "two-factor-frozen"]);
  });

  it("staff reset a customer's two-factor, which clears the count", async () => {
    const account = await frozenAccount();
    const admin = await signUpAdmin();
    const listed = await (await get(`/admin/users?q=${account.username}`, admin.cookie)).text();
    expect(listed).toMatch(new RegExp(`Yes, reset two-factor for (<!-- -->)?${account.username}`));

    const reset = await postForm(
      "/admin/users",
      { intent: "reset-two-factor", userId: String(account.id) },
      admin.cookie,
    );
    expect(reset.status).toBe(302);
    const row = db().select().from(users).where(eq(users.id, account.id)).get();
    expect(row).toMatchObject({ totpEnabledAt: null, totpSecret: null, twoFactorFailures: 0 });
    const signedIn = await apiLogin(account.credentials);
    expect(signedIn.status).toBe(200);

    const twice = await refused(() =>
      postForm(
        "/admin/users",
        { intent: "reset-two-factor", userId: String(account.id) },
        admin.cookie,
      ),
    );
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain(
      "That user does not have two-factor sign-in on: there is nothing to reset.",
    );
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
