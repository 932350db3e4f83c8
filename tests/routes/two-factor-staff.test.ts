import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { STAFF_TWO_FACTOR_REQUIRED } from "#app/domain/two-factor";
import { coupons, passkeys, signIns, users } from "#db/schema";
import { createBooking } from "#tests/factories/booking";
import { createSignIn, signInCookieValue, storedSignInId } from "#tests/factories/sign-in";
import { currentCode, enableTwoFactor, storedTotpSecret } from "#tests/factories/two-factor";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { registrationPayload } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * The staff rules and the code limit, on a server set as production has them by default
 * (REQUIRE_STAFF_2FA on, STAFF_IDLE_MINUTES 60) with a small TWO_FACTOR_CODE_LIMIT: an admin
 * whose sign-in proved no second factor is sent to set it up (pages), refused (admin JSON) or
 * treated as a customer (files, receipts); the studio feed needs a second factor on the account;
 * idle staff sign-ins end, and codes meet a 429 per account and per address. Refusals write
 * nothing. Every route that admits staff is walked in authorization.test.ts.
 */
// Before the imports: the factories load the app's settings.
vi.hoisted(() =>
  Object.assign(process.env, { REQUIRE_STAFF_2FA: "true", TWO_FACTOR_CODE_LIMIT: "3" }),
);
const server = appForThisFile();
const { db, signUp, signUpAdmin, snapshot } = actorsFor(server);

const MINUTE = 60_000;

const get = (path: string, cookie: string) =>
  fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });

function send(path: string, method: string, cookie: string, body: unknown) {
  return fetch(`${server.url}${path}`, {
    method,
    redirect: "manual",
    headers: { Origin: server.url, Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function refused(request: () => Promise<Response>) {
  const before = snapshot();
  const response = await request();
  expect(snapshot()).toEqual(before);
  return response;
}

/** A sign-in for `userId` whose last request was `idleMs` ago. */
async function signInIdleFor(userId: number, idleMs: number) {
  const signIn = createSignIn(db(), { userId, lastSeenAt: Date.now() - idleMs });
  const cookie = `__session=${signInCookieValue(signIn.id)}`;
  return { id: signIn.id, cookie };
}

const lastSeen = (id: string) =>
  db()
    .select({ at: signIns.lastSeenAt })
    .from(signIns)
    .where(eq(signIns.id, storedSignInId(id)))
    .get()?.at;

/** A sign-in of `userId` as a login leaves it: with a code (`secondFactor`) or only a password. */
function signedInAs(userId: number, secondFactor: boolean): Actor & { signInId: string } {
  const signIn = createSignIn(db(), { userId, secondFactor });
  const cookie = `__session=${signInCookieValue(signIn.id)}`;
  return { id: userId, username: "", cookie, signInId: signIn.id };
}

/** Posts a form to the two-factor page, as the page does without JavaScript. */
const twoFactorForm = (cookie: string, fields: Record<string, string>) =>
  fetch(`${server.url}/dashboard/two-factor`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, Cookie: cookie },
    body: new URLSearchParams(fields),
  });

/** The staff routes a held-back admin is refused, and the answer an admin who passes gets. */
async function expectHeldBack(cookie: string, bookingId: number) {
  for (const path of ["/admin/bookings", `/admin/bookings/${bookingId}`]) {
    const page = await get(path, cookie);
    expect(page.status, path).toBe(302);
    expect(page.headers.get("Location"), path).toBe("/dashboard/two-factor");
  }
  const api = await get("/api/admin/users", cookie);
  expect(api.status).toBe(403);
  expect(await api.json()).toEqual({ message: STAFF_TWO_FACTOR_REQUIRED });
  // A customer's files are staff's to see: to an admin held back, as to any customer, missing.
  const files = await get(`/api/bookings/${bookingId}/files`, cookie);
  expect(files.status).toBe(404);
  expect(await files.json()).toEqual({ message: "Booking not found" });
}

async function expectPasses(cookie: string, bookingId: number) {
  expect((await get("/admin/bookings", cookie)).status).toBe(200);
  expect((await get(`/admin/bookings/${bookingId}`, cookie)).status).toBe(200);
  expect((await get("/api/admin/users", cookie)).status).toBe(200);
  expect((await get(`/api/bookings/${bookingId}/files`, cookie)).status).toBe(200);
}

async function customerBooking(): Promise<number> {
  const customer = await signUp();
  return createBooking(db(), { user: { id: customer.id } }).id;
}

describe("staff must prove a second factor (REQUIRE_STAFF_2FA)", () => {
  it("sends an admin without it to the setup page before any admin page", async () => {
    const admin = await signUpAdmin();
    for (const path of ["/admin", "/admin/bookings", "/admin/coupons", "/admin/sales/export"]) {
      const response = await get(path, admin.cookie);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe("/dashboard/two-factor");
    }
    const setup = await get("/dashboard/two-factor", admin.cookie);
    expect(setup.status).toBe(200);
    expect(await setup.text()).toContain(
      "Staff accounts must turn on two-factor sign-in before opening the admin pages.",
    );
  });

  it("answers the admin JSON with 403 and our message, and writes nothing", async () => {
    const admin = await signUpAdmin();
    const list = await get("/api/admin/users", admin.cookie);
    expect(list.status).toBe(403);
    expect(await list.json()).toEqual({ message: STAFF_TWO_FACTOR_REQUIRED });
    const before = db().select().from(coupons).all().length;
    const create = await refused(() =>
      send("/api/admin/coupons", "POST", admin.cookie, {
        code: `STAFF${admin.id}`,
        type: "PERCENTAGE",
        value: 10,
      }),
    );
    expect(create.status).toBe(403);
    expect(await create.json()).toEqual({ message: STAFF_TWO_FACTOR_REQUIRED });
    expect(db().select().from(coupons).all()).toHaveLength(before);
  });

  it("does not show an admin without it a customer's session files", async () => {
    const admin = await signUpAdmin();
    const bookingId = await customerBooking();
    const before = snapshot();
    await expectHeldBack(admin.cookie, bookingId);
    expect(snapshot()).toEqual(before);
  });

  it("lets in an admin whose sign-in proved a code, and a customer is not asked for it", async () => {
    const admin = await signUpAdmin();
    enableTwoFactor(db(), admin.id);
    await expectPasses(signedInAs(admin.id, true).cookie, await customerBooking());
    const customer = await signUp();
    expect((await get("/dashboard", customer.cookie)).status).toBe(200);
  });

  it("holds back a sign-in that proved only the password, though the account has two-factor on", async () => {
    const admin = await signUpAdmin();
    enableTwoFactor(db(), admin.id);
    const passwordOnly = signedInAs(admin.id, false);
    await expectHeldBack(passwordOnly.cookie, await customerBooking());
    const page = await (await get("/dashboard/two-factor", passwordOnly.cookie)).text();
    expect(page).toContain("sign out, then sign in again with your app&#x27;s code.");
  });

  it("lets the same sign-in in once two-factor is turned on in it, without signing in again", async () => {
    const admin = await signUpAdmin();
    const bookingId = await customerBooking();
    await expectHeldBack(admin.cookie, bookingId);
    expect((await twoFactorForm(admin.cookie, { intent: "start" })).status).toBe(302);
    const code = await currentCode(storedTotpSecret(db(), admin.id));
    const confirm = await twoFactorForm(admin.cookie, { intent: "confirm", code });
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain("save your recovery codes");
    await expectPasses(admin.cookie, bookingId);
    // Only the sign-in that turned it on: another password-only sign-in stays held back.
    await expectHeldBack(signedInAs(admin.id, false).cookie, bookingId);
  });

  it("refuses to turn it off for staff, and writes nothing", async () => {
    const admin = await signUpAdmin();
    enableTwoFactor(db(), admin.id);
    const { cookie } = signedInAs(admin.id, true);
    const response = await refused(() =>
      twoFactorForm(cookie, {
        intent: "disable",
        proof: String(registrationPayload().password),
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Staff accounts must keep two-factor sign-in on");
  });
});

describe("the studio calendar feed needs a second factor on its owner's account", () => {
  /** The studio link the Sessions tab shows (made on the first view). */
  async function studioFeed(userId: number): Promise<string> {
    const page = await get("/admin/sessions", signedInAs(userId, true).cookie);
    expect(page.status).toBe(200);
    const token = /\/calendar\/([A-Za-z0-9_-]{43})\.ics/.exec(await page.text())?.[1];
    if (!token) throw new Error("No studio calendar link on the Sessions tab");
    return token;
  }
  const feed = (token: string) => fetch(`${server.url}/calendar/${token}.ics`);

  it("works with two-factor on or with a passkey, and is a dead link without either", async () => {
    const admin = await signUpAdmin();
    const token = await studioFeed(admin.id);
    const dead = await feed(token);
    expect(dead.status).toBe(404);
    expect(await dead.text()).toBe("This calendar link does not exist or has been replaced.");

    db()
      .insert(passkeys)
      .values({
        userId: admin.id,
        credentialId: randomBytes(16).toString("base64url"),
        publicKey: randomBytes(65),
        name: "Laptop",
      })
      .run();
    expect((await feed(token)).status).toBe(200);

    const withApp = await signUpAdmin();
    enableTwoFactor(db(), withApp.id);
    expect((await feed(await studioFeed(withApp.id))).status).toBe(200);
  });
});

describe("staff sign-ins end after STAFF_IDLE_MINUTES without a request", () => {
  it("ends an admin's sign-in idle for the limit, and removes it", async () => {
    const admin = await signUpAdmin();
    enableTwoFactor(db(), admin.id);
    const idle = await signInIdleFor(admin.id, 60 * MINUTE + 1_000);
    expect((await get("/api/user", idle.cookie)).status).toBe(401);
    expect((await get("/admin", idle.cookie)).headers.get("Location")).toBe("/auth");
    expect(lastSeen(idle.id)).toBeUndefined();
  });

  it("keeps an admin's sign-in a little under the limit, and records the request", async () => {
    const admin = await signUpAdmin();
    enableTwoFactor(db(), admin.id);
    const recent = await signInIdleFor(admin.id, 59 * MINUTE);
    const before = Date.now();
    expect((await get("/api/user", recent.cookie)).status).toBe(200);
    expect(lastSeen(recent.id)).toBeGreaterThanOrEqual(before);
  });

  it("writes the last-seen time at most about once a minute", async () => {
    const customer = await signUp();
    const fresh = await signInIdleFor(customer.id, 10_000);
    const seen = lastSeen(fresh.id);
    expect((await get("/api/user", fresh.cookie)).status).toBe(200);
    expect(lastSeen(fresh.id)).toBe(seen);
  });

  it("keeps a customer's sign-in however long it was idle (14 days' expiry)", async () => {
    const customer = await signUp();
    const idle = await signInIdleFor(customer.id, 3 * 24 * 60 * MINUTE);
    expect((await get("/api/user", idle.cookie)).status).toBe(200);
  });
});

describe("two-factor codes are limited per account and per address (TWO_FACTOR_CODE_LIMIT)", () => {
  function apiLogin(body: Record<string, unknown>) {
    return fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify(body),
    });
  }

  it("answers 429 with Retry-After once the account has used its tries, even to the right code", async () => {
    const account = await signUp();
    const { secret } = enableTwoFactor(db(), account.id);
    const credentials = {
      username: account.username,
      password: String(registrationPayload().password),
    };
    const right = await currentCode(secret);
    const wrong = right === "000000" ? "111111" : "000000";
    for (let i = 0; i < 3; i++) {
      expect((await apiLogin({ ...credentials, code: wrong })).status).toBe(401);
    }
    const limited = await refused(() => apiLogin({ ...credentials, code: right }));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({
      message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ minutes?\.$/),
      twoFactorRequired: true,
    });
  });

  it("answers 429 to another account's code from the same address", async () => {
    const other = await signUp();
    enableTwoFactor(db(), other.id);
    const limited = await refused(() =>
      apiLogin({
        username: other.username,
        password: String(registrationPayload().password),
        code: "000000",
      }),
    );
    expect(limited.status).toBe(429);
    expect(db().select().from(users).where(eq(users.id, other.id)).get()?.totpLastStep).toBeNull();
  });

  it("answers the sign-in page's code step with 429 and Retry-After too", async () => {
    const account = await signUp();
    enableTwoFactor(db(), account.id);
    const step1 = await fetch(`${server.url}/auth`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.url },
      body: new URLSearchParams({
        intent: "login",
        username: account.username,
        password: String(registrationPayload().password),
      }),
    });
    const pending = step1.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const limited = await refused(() =>
      fetch(`${server.url}/auth`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.url, Cookie: pending },
        body: new URLSearchParams({ intent: "code", code: "000000" }),
      }),
    );
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await limited.text()).toContain("Too many attempts");
  });
});
