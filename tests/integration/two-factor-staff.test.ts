import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { coupons, sessions, users } from "#db/schema";
import { createSession, sessionCookieValue, storedSessionId } from "#tests/factories/session";
import { currentCode, enableTwoFactor } from "#tests/factories/two-factor";
import { actorsFor } from "#tests/setup/actors";
import { registrationPayload } from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * The staff rules and the code limit, on a server set as production has them by default
 * (REQUIRE_STAFF_2FA on, STAFF_IDLE_MINUTES 60) with a small TWO_FACTOR_CODE_LIMIT: an admin
 * without two-factor is sent to set it up (pages) or refused (admin JSON), idle staff sessions
 * end, and codes meet a 429 per account and per address. Refusals write nothing.
 */
const server = serverForThisFile({ REQUIRE_STAFF_2FA: "true", TWO_FACTOR_CODE_LIMIT: "3" });
const { db, signUp, signUpAdmin, snapshot } = actorsFor(server);

const STAFF_TWO_FACTOR_REQUIRED =
  "Staff accounts must turn on two-factor sign-in first: Profile Settings, Two-factor sign-in.";
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

/** A signed-in session for `userId` whose last request was `idleMs` ago. */
async function sessionIdleFor(userId: number, idleMs: number) {
  const session = createSession(db(), { userId, lastSeenAt: Date.now() - idleMs });
  const cookie = `__session=${sessionCookieValue(session.id)}`;
  return { id: session.id, cookie };
}

const lastSeen = (id: string) =>
  db()
    .select({ at: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.id, storedSessionId(id)))
    .get()?.at;

describe("staff must have two-factor (REQUIRE_STAFF_2FA)", () => {
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

  it("lets an admin with two-factor in, and a customer is not asked for it", async () => {
    const admin = await signUpAdmin();
    enableTwoFactor(db(), admin.id);
    expect((await get("/admin/bookings", admin.cookie)).status).toBe(200);
    expect((await get("/api/admin/users", admin.cookie)).status).toBe(200);
    const customer = await signUp();
    expect((await get("/dashboard", customer.cookie)).status).toBe(200);
  });

  it("refuses to turn it off for staff, and writes nothing", async () => {
    const admin = await signUpAdmin();
    enableTwoFactor(db(), admin.id);
    const response = await refused(() =>
      fetch(`${server.url}/dashboard/two-factor`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.url, Cookie: admin.cookie },
        body: new URLSearchParams({
          intent: "disable",
          proof: String(registrationPayload().password),
        }),
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Staff accounts must keep two-factor sign-in on");
  });
});

describe("staff sessions end after STAFF_IDLE_MINUTES without a request", () => {
  it("ends an admin's session idle for the limit, and removes it", async () => {
    const admin = await signUpAdmin();
    enableTwoFactor(db(), admin.id);
    const idle = await sessionIdleFor(admin.id, 60 * MINUTE + 1_000);
    expect((await get("/api/user", idle.cookie)).status).toBe(401);
    expect((await get("/admin", idle.cookie)).headers.get("Location")).toBe("/auth");
    expect(lastSeen(idle.id)).toBeUndefined();
  });

  it("keeps an admin's session a little under the limit, and records the request", async () => {
    const admin = await signUpAdmin();
    enableTwoFactor(db(), admin.id);
    const recent = await sessionIdleFor(admin.id, 59 * MINUTE);
    const before = Date.now();
    expect((await get("/api/user", recent.cookie)).status).toBe(200);
    expect(lastSeen(recent.id)).toBeGreaterThanOrEqual(before);
  });

  it("writes the last-seen time at most about once a minute", async () => {
    const customer = await signUp();
    const fresh = await sessionIdleFor(customer.id, 10_000);
    const seen = lastSeen(fresh.id);
    expect((await get("/api/user", fresh.cookie)).status).toBe(200);
    expect(lastSeen(fresh.id)).toBe(seen);
  });

  it("keeps a customer's session however long it was idle (14 days' expiry)", async () => {
    const customer = await signUp();
    const idle = await sessionIdleFor(customer.id, 3 * 24 * 60 * MINUTE);
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
