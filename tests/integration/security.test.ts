import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { createCookie } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { signIns } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { storedSignInId } from "#tests/factories/sign-in";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { inlineScriptHashes, scriptSources } from "#tests/setup/csp";
import {
  bookingFormFields,
  PASSWORD,
  registerFormFields,
  SANDBOX_CARD,
} from "#tests/setup/payloads";
import { registrationPayload, uniqueUsername } from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * The security bars of docs/quality.md that are not about who may open which route (that is
 * authorization.test.ts): cross-site writes, the sign-in cookie's life, the response headers,
 * and what errors may show. Behind a proxy: security-proxy.test.ts.
 */
const SESSION_SECRET = "security-suite-secret-0123456789abcdefghij";
const MAX_AGE_DAYS = 14;
const server = serverForThisFile({
  SESSION_SECRET,
  SESSION_MAX_AGE_DAYS: String(MAX_AGE_DAYS),
});
const { db, signUp, snapshot } = actorsFor(server);

const CARD_DIGITS = "4242424242424242";
const DECLINED_DIGITS = "4000000000000002";
/** The cookie format before decision 0092: the id signed with the server's secret. */
const signedCookieOfBefore = createCookie("__session", { secrets: [SESSION_SECRET] });
/** A sign-in id as the server makes them: 256 random bits in base64url. */
const SIGN_IN_ID = /^[A-Za-z0-9_-]{43}$/;

type Headers = Record<string, string>;

function postForm(path: string, fields: Record<string, string>, headers: Headers = {}) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, ...headers },
    body: new URLSearchParams(fields),
  });
}

function sendJson(method: string, path: string, body: unknown, headers: Headers = {}) {
  return fetch(`${server.url}${path}`, {
    method,
    redirect: "manual",
    headers: { "Content-Type": "application/json", Origin: server.url, ...headers },
    body: JSON.stringify(body),
  });
}

const get = (path: string, headers: Headers = {}) =>
  fetch(`${server.url}${path}`, { redirect: "manual", headers });

/** The sign-in cookie a response set, as "__session=..." for a Cookie header. */
function signInPair(response: Response): string {
  const pair = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .find((cookie) => cookie.startsWith("__session="));
  if (!pair) throw new Error(`No sign-in cookie in the ${response.status} answer`);
  return pair;
}

/** The sign-in id a "__session=..." pair carries: the cookie holds only the id (0092). */
async function signInIdOf(cookieHeader: string): Promise<string> {
  const id = /(?:^|;\s*)__session=([^;]*)/.exec(cookieHeader)?.[1] ?? "";
  if (!SIGN_IN_ID.test(id)) throw new Error(`Not a sign-in cookie: ${cookieHeader}`);
  return id;
}

/** The row of a cookie's sign-in id (the table holds its SHA-256). */
const signInRow = (id: string) =>
  server.db
    .select({ userId: signIns.userId, expiresAt: signIns.expiresAt })
    .from(signIns)
    .where(eq(signIns.id, storedSignInId(id)))
    .get();

async function logIn(user: Actor): Promise<string> {
  const response = await sendJson("POST", "/api/login", {
    username: user.username,
    password: PASSWORD,
  });
  expect(response.status).toBe(200);
  return signInPair(response);
}

async function isSignedIn(cookie: string) {
  return (await get("/api/user", { Cookie: cookie })).status === 200;
}

let dayOffset = 0;
function bookingFields(): Record<string, string> {
  dayOffset += 1;
  const date = addStudioDays(earliestBookableDate(Date.now()), dayOffset);
  return bookingFormFields(date, "10:00", 2, { businessName: "" });
}

async function unpaidBooking(owner: Actor): Promise<number> {
  const response = await sendJson(
    "POST",
    "/api/bookings",
    { ...bookingFields(), isRetainer: false },
    { Cookie: owner.cookie },
  );
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

const card = { paymentMethod: "card", ...SANDBOX_CARD };

describe("cross-site writes (CSRF)", () => {
  let customer: Actor;
  beforeAll(async () => {
    customer = await signUp();
  });

  /**
   * Every state change a page or /api/* offers, as the browser of a signed-in customer (or
   * of a visitor for the account forms) would send it. `done` is the answer of the same
   * request from our own page, which must still work.
   */
  type Send = (headers: Headers) => Promise<Response>;
  type Target = {
    name: string;
    /** Posts to a page with a UI, which React Router's own Origin check guards first. */
    page: boolean;
    /** Makes what the request needs (a booking to pay), before the database is snapshot. */
    prepare?(): Promise<Send>;
    send?: Send;
    done: number;
  };
  const targets = (): Target[] => [
    {
      name: "the registration form",
      page: true,
      send: (headers) =>
        postForm("/auth?tab=register", registerFormFields(uniqueUsername("csrf")), headers),
      done: 302,
    },
    {
      name: "the booking form (its .data URL)",
      page: true,
      send: (headers) =>
        postForm(
          "/_root.data?index",
          { intent: "book", ...bookingFields() },
          { Cookie: customer.cookie, ...headers },
        ),
      done: 202,
    },
    {
      name: "the checkout form",
      page: true,
      prepare: async () => {
        const path = `/checkout/${await unpaidBooking(customer)}`;
        return (headers) => postForm(path, card, { Cookie: customer.cookie, ...headers });
      },
      done: 302,
    },
    {
      name: "POST /api/register",
      page: false,
      send: (headers) => sendJson("POST", "/api/register", registrationPayload(), headers),
      done: 201,
    },
    {
      name: "POST /api/bookings",
      page: false,
      send: (headers) =>
        sendJson(
          "POST",
          "/api/bookings",
          { ...bookingFields(), isRetainer: false },
          { Cookie: customer.cookie, ...headers },
        ),
      done: 201,
    },
    {
      name: "POST /api/bookings/{id}/payments/direct",
      page: false,
      prepare: async () => {
        const path = `/api/bookings/${await unpaidBooking(customer)}/payments/direct`;
        return (headers) => sendJson("POST", path, card, { Cookie: customer.cookie, ...headers });
      },
      done: 200,
    },
    {
      // /logout has no UI of its own: a resource route, guarded by our check alone.
      name: "the logout form",
      page: false,
      send: (headers) => postForm("/logout", {}, { Cookie: customer.cookie, ...headers }),
      done: 302,
    },
    {
      name: "POST /api/logout",
      page: false,
      send: (headers) =>
        sendJson("POST", "/api/logout", {}, { Cookie: customer.cookie, ...headers }),
      done: 200,
    },
  ];

  /**
   * What another site can make a browser send. React Router checks the Origin of posts to
   * pages with a UI before our middleware runs, and answers 400; our middleware (root
   * middleware, for every route) answers 403 to everything else.
   */
  const hostile = (): { name: string; headers: Headers; page: number }[] => {
    const port = Number(new URL(server.url).port);
    return [
      { name: "a foreign Origin", headers: { Origin: "https://evil.example" }, page: 400 },
      { name: "Origin: null", headers: { Origin: "null" }, page: 400 },
      {
        name: "another port of this host",
        headers: { Origin: `http://127.0.0.1:${port + 1}` },
        page: 400,
      },
      {
        name: "https instead of http",
        headers: { Origin: server.url.replace("http:", "https:") },
        page: 400,
      },
      // With our own Origin, so that only the Sec-Fetch-Site check can refuse these.
      {
        name: "Sec-Fetch-Site: cross-site",
        headers: { "Sec-Fetch-Site": "cross-site" },
        page: 403,
      },
      {
        name: "Sec-Fetch-Site: same-site (a sibling subdomain)",
        headers: { "Sec-Fetch-Site": "same-site" },
        page: 403,
      },
    ];
  };

  async function sendOf(target: Target): Promise<Send> {
    const send = target.prepare ? await target.prepare() : target.send;
    if (!send) throw new Error(`${target.name} has nothing to send`);
    return send;
  }

  it("refuses every state change from another site, writes nothing, then accepts our own", async () => {
    for (const target of targets()) {
      for (const attack of hostile()) {
        const send = await sendOf(target);
        const before = snapshot();
        const response = await send(attack.headers);
        const label = `${target.name} with ${attack.name}`;
        expect(response.status, label).toBe(target.page ? attack.page : 403);
        if (response.status === 403) {
          expect(await response.text(), label).toContain("Cross-site request refused");
        }
        expect(snapshot(), `${label} changed the database`).toEqual(before);
        expect(await isSignedIn(customer.cookie), `${label} ended the sign-in`).toBe(true);
      }
      const send = await sendOf(target);
      const before = snapshot();
      const own = await send({ "Sec-Fetch-Site": "same-origin" });
      expect(own.status, `${target.name} from our own page`).toBe(target.done);
      expect(snapshot(), `${target.name} from our own page wrote nothing`).not.toEqual(before);
      // The logout controls end the customer's sign-in: sign in again for the next target.
      if (!(await isSignedIn(customer.cookie))) customer.cookie = await logIn(customer);
    }
  });

  it("refuses a JSON body sent as a form or text/plain (no cross-site form can send JSON)", async () => {
    const author = await signUp();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]) {
      const before = snapshot();
      const response = await fetch(`${server.url}/api/bookings`, {
        method: "POST",
        headers: { "Content-Type": type, Cookie: author.cookie },
        body: JSON.stringify({ ...bookingFields(), isRetainer: false }),
      });
      expect(response.status, type).toBe(415);
      expect(snapshot()).toEqual(before);
    }
  });

  it("still lets other sites link to pages (cross-site GET)", async () => {
    for (const path of ["/", "/auth", "/booking-success"]) {
      const response = await get(path, { "Sec-Fetch-Site": "cross-site" });
      expect(response.status, path).toBe(200);
    }
  });
});

describe("sign-ins", () => {
  const MAX_AGE_SECONDS = MAX_AGE_DAYS * 24 * 60 * 60;

  function expectSignInCookieFlags(response: Response) {
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__session="));
    expect(cookie).toBeDefined();
    const attributes = (cookie ?? "").split(";").map((part) => part.trim().toLowerCase());
    expect(attributes).toContain("httponly");
    expect(attributes).toContain("samesite=lax");
    expect(attributes).toContain("secure");
    expect(attributes).toContain("path=/");
    expect(attributes).toContain(`max-age=${MAX_AGE_SECONDS}`);
    // The value is the random id itself (32 bytes, base64url), nothing about the user.
    expect((cookie ?? "").split(";")[0]?.slice("__session=".length)).toMatch(SIGN_IN_ID);
  }

  it("sets the same strict cookie on every way in: form and API, login and registration", async () => {
    const user = await signUp();
    const viaApiLogin = await sendJson("POST", "/api/login", {
      username: user.username,
      password: PASSWORD,
    });
    expect(viaApiLogin.status).toBe(200);
    expectSignInCookieFlags(viaApiLogin);
    const viaForm = await postForm("/auth", {
      intent: "login",
      username: user.username,
      password: PASSWORD,
    });
    expect(viaForm.status).toBe(302);
    expectSignInCookieFlags(viaForm);
    const viaApiRegister = await sendJson("POST", "/api/register", registrationPayload());
    expect(viaApiRegister.status).toBe(201);
    expectSignInCookieFlags(viaApiRegister);
  });

  it("keeps the sign-in for the configured lifetime, in the cookie and in the database", async () => {
    const before = Date.now();
    const user = await signUp();
    const row = signInRow(await signInIdOf(user.cookie));
    expect(row?.userId).toBe(user.id);
    const lifetime = (row?.expiresAt ?? 0) - before;
    expect(lifetime).toBeGreaterThanOrEqual(MAX_AGE_SECONDS * 1000);
    expect(lifetime).toBeLessThan(MAX_AGE_SECONDS * 1000 + 60_000);
  });

  it("starts a new sign-in id on login: a planted id is never adopted (form and API)", async () => {
    const user = await signUp();
    const planted = "__session=attacker-chosen-session-id";
    for (const login of [
      () =>
        postForm(
          "/auth",
          { intent: "login", username: user.username, password: PASSWORD },
          { Cookie: planted },
        ),
      () =>
        sendJson(
          "POST",
          "/api/login",
          { username: user.username, password: PASSWORD },
          { Cookie: planted },
        ),
    ]) {
      const response = await login();
      expect(response.status).toBeLessThan(400);
      const id = await signInIdOf(signInPair(response));
      expect(id).not.toBe("attacker-chosen-session-id");
      expect(id.length).toBeGreaterThanOrEqual(40);
      expect(signInRow("attacker-chosen-session-id")).toBeUndefined();
      expect(signInRow(id)?.userId).toBe(user.id);
    }
  });

  it("kills a copied cookie on logout, by the form, its .data URL and the API", async () => {
    const logouts = [
      (cookie: string) => postForm("/logout", {}, { Cookie: cookie }),
      (cookie: string) => postForm("/logout.data", {}, { Cookie: cookie }),
      (cookie: string) => sendJson("POST", "/api/logout", {}, { Cookie: cookie }),
    ];
    for (const logout of logouts) {
      const user = await signUp();
      const copy = user.cookie;
      const id = await signInIdOf(copy);
      const response = await logout(user.cookie);
      expect(response.status).toBeLessThan(400);
      // The browser's cookie is cleared, and the copy no longer opens anything.
      const cleared = response.headers.getSetCookie().find((c) => c.startsWith("__session="));
      expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
      expect(signInRow(id)).toBeUndefined();
      expect(await isSignedIn(copy)).toBe(false);
      expect((await get("/dashboard", { Cookie: copy })).headers.get("Location")).toBe("/auth");
    }
  });

  it("refuses a sign-in whose expiry has passed, however real its id", async () => {
    const user = await signUp();
    const id = await signInIdOf(user.cookie);
    expect(await isSignedIn(user.cookie)).toBe(true);
    db()
      .update(signIns)
      .set({ expiresAt: Date.now() - 1000 })
      .where(eq(signIns.id, storedSignInId(id)))
      .run();
    expect(await isSignedIn(user.cookie)).toBe(false);
    expect((await get("/dashboard", { Cookie: user.cookie })).headers.get("Location")).toBe(
      "/auth",
    );
    const data = await get("/dashboard.data", { Cookie: user.cookie });
    expect(await data.text()).toContain('"redirect","/auth"');
    // The expired row is swept at the next login rather than kept forever.
    await sendJson("POST", "/api/login", { username: user.username, password: PASSWORD });
    expect(signInRow(id)).toBeUndefined();
  });

  it("refuses a guessed or tampered id, and the signed format of before (decision 0092)", async () => {
    const user = await signUp();
    const id = await signInIdOf(user.cookie);
    expect(await isSignedIn(`__session=${id}`)).toBe(true);
    const tampered = `__session=${id.slice(0, -1)}${id.endsWith("A") ? "B" : "A"}`;
    const guessed = `__session=${randomBytes(32).toString("base64url")}`;
    const encoded = `__session=${btoa(JSON.stringify(id))}`;
    // A live sign-in's id signed as before 0092 signs its browser out once.
    const signedBefore = (await signedCookieOfBefore.serialize(id)).split(";")[0] ?? "";
    for (const cookie of [tampered, guessed, encoded, signedBefore, "__session=abc.def"]) {
      expect(await isSignedIn(cookie), cookie).toBe(false);
    }
  });

  it("gives visitors no cookie at all, also when their login fails", async () => {
    for (const path of [
      "/",
      "/_root.data",
      "/auth",
      "/auth.data",
      "/booking-success",
      "/no-such-page",
      "/api/services",
      `/api/availability?date=${addStudioDays(earliestBookableDate(Date.now()), 3)}&hours=2`,
      "/healthz",
    ]) {
      const response = await get(path);
      expect(response.status, path).toBeLessThan(500);
      expect(response.headers.getSetCookie(), path).toEqual([]);
    }
    const failed = await sendJson("POST", "/api/login", {
      username: "nobody",
      password: "wrong-password",
    });
    expect(failed.status).toBe(401);
    expect(failed.headers.getSetCookie()).toEqual([]);
    const failedForm = await postForm("/auth", {
      intent: "login",
      username: "nobody",
      password: "wrong-password",
    });
    expect(failedForm.status).toBe(401);
    expect(failedForm.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(false);
  });
});

describe("headers", () => {
  let customer: Actor;
  let bookingId: number;
  beforeAll(async () => {
    customer = await signUp();
    bookingId = await unpaidBooking(customer);
  });

  const htmlPages = () => [
    { path: "/", cookie: "" },
    { path: "/auth", cookie: "" },
    { path: "/booking-success?session_id=nothing", cookie: "" },
    { path: "/no-such-page", cookie: "" },
    { path: "/", cookie: customer.cookie },
    { path: "/dashboard", cookie: customer.cookie },
    { path: `/checkout/${bookingId}`, cookie: customer.cookie },
  ];

  it("lets a page run its own inline scripts by their hashes, and no other script inline", async () => {
    for (const { path, cookie } of htmlPages()) {
      const response = await get(path, cookie ? { Cookie: cookie } : {});
      expect(response.headers.get("Content-Type")).toContain("text/html");
      const csp = response.headers.get("Content-Security-Policy") ?? "";
      const sources = scriptSources(csp);
      expect(sources.at(0), path).toBe("'self'");
      expect(sources.at(-1), path).toBe("'strict-dynamic'");
      for (const source of sources) expect(source, path).not.toMatch(/nonce|unsafe/);
      for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"]) {
        expect(csp, path).toContain(directive);
      }
      const html = await response.text();
      const hashes = inlineScriptHashes(html);
      expect(hashes.length, path).toBeGreaterThan(0);
      expect(new Set(sources.slice(1, -1)), path).toEqual(new Set(hashes));
      expect(html, path).not.toMatch(/\snonce=/);
      // No inline event handlers or javascript: URLs, which no hash can allow.
      expect(html).not.toMatch(/<[^>]+\son[a-z]+\s*=/i);
      expect(html).not.toMatch(/javascript:/i);
    }
  });

  it("sends nosniff, the referrer policy, no framing and HSTS on every kind of answer", async () => {
    const answers: [string, Promise<Response>][] = [
      ["a page", get("/")],
      ["a .data request", get("/_root.data")],
      ["a redirect", get("/dashboard")],
      ["a 404 page", get("/no-such-page")],
      ["a JSON answer", get("/api/services")],
      ["a JSON 401", get("/api/user")],
      ["a JSON 405", get("/api/login")],
      ["a JSON 400", sendJson("POST", "/api/login", { username: "" })],
      ["a signed-in page", get("/dashboard", { Cookie: customer.cookie })],
    ];
    for (const [name, pending] of answers) {
      const response = await pending;
      const header = (key: string) => response.headers.get(key);
      expect(header("X-Content-Type-Options"), name).toBe("nosniff");
      expect(header("Referrer-Policy"), name).toBe("strict-origin-when-cross-origin");
      expect(header("X-Frame-Options"), name).toBe("DENY");
      expect(header("Content-Security-Policy"), name).toContain("frame-ancestors 'none'");
      expect(header("Strict-Transport-Security"), name).toMatch(
        /^max-age=(\d+); includeSubDomains$/,
      );
      const maxAge = Number(/max-age=(\d+)/.exec(header("Strict-Transport-Security") ?? "")?.[1]);
      expect(maxAge, name).toBeGreaterThanOrEqual(365 * 24 * 60 * 60);
      expect(header("X-Powered-By"), name).toBeNull();
    }
    // Files go out before the app's middleware: they carry nosniff and HSTS all the same.
    const html = await (await get("/")).text();
    const script = /src="(\/assets\/[^"]+\.js)"|href="(\/assets\/[^"]+\.js)"/.exec(html);
    const files = ["/favicon.ico", script?.[1] ?? script?.[2] ?? "/assets/missing.js"];
    for (const path of files) {
      const file = await get(path);
      expect(file.status, path).toBe(200);
      expect(file.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
      expect(file.headers.get("Strict-Transport-Security"), path).toMatch(/^max-age=\d+/);
    }
    // Anything answered to a signed-in browser stays out of shared caches.
    for (const path of ["/api/user", "/dashboard", "/dashboard.data", `/checkout/${bookingId}`]) {
      const signedIn = await get(path, { Cookie: customer.cookie });
      expect(signedIn.status, path).toBe(200);
      expect(signedIn.headers.get("Cache-Control"), path).toBe("private, no-store");
    }
  });
});

describe("errors show nothing of the inside", () => {
  /** What must never reach a client or the log. */
  function expectNothingLeaks(text: string, label: string) {
    expect(text, label).not.toMatch(/\n\s+at .+\(?.+:\d+:\d+\)?/);
    expect(text, label).not.toMatch(/\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/);
    expect(text, label).not.toMatch(/SQLITE_|better-sqlite3|drizzle|node_modules|\/work\//i);
    expect(text, label).not.toMatch(/\$argon2/);
    expect(text, label).not.toContain(SESSION_SECRET);
    expect(text, label).not.toContain(CARD_DIGITS);
  }

  it("answers malformed, unknown and hostile requests without a stack, SQL or secret", async () => {
    const user = await signUp();
    const cookie = { Cookie: user.cookie };
    const raw = (method: string, path: string, body: string, headers: Headers = {}) =>
      fetch(`${server.url}${path}`, {
        method,
        redirect: "manual",
        headers: { "Content-Type": "application/json", ...headers },
        body,
      });
    const provocations: [string, () => Promise<Response>][] = [
      ["malformed JSON", () => raw("POST", "/api/login", '{"username": "a", "password": ')],
      ["JSON of the wrong shape", () => raw("POST", "/api/bookings", "[1,2,3]", cookie)],
      ["a huge number", () => raw("POST", "/api/bookings", '{"hoursNeeded": 1e400}', cookie)],
      [
        "SQL in a username",
        () => sendJson("POST", "/api/login", { username: "' OR 1=1 --", password: PASSWORD }),
      ],
      ["an unknown booking", () => get("/checkout/999999999", cookie)],
      ["a non-numeric booking id", () => get("/checkout/abc'%20OR%201=1", cookie)],
      ["an id beyond 2^53", () => get("/checkout/99999999999999999999999", cookie)],
      [
        "an unknown booking's status",
        () => sendJson("PATCH", "/api/bookings/123456789/status", { status: "PAID" }, cookie),
      ],
      [
        "a card payment with the full card number",
        () =>
          sendJson(
            "POST",
            "/api/bookings/123456789/payments/direct",
            { ...card, cardNumber: CARD_DIGITS },
            cookie,
          ),
      ],
      ["a bad method", () => raw("DELETE", "/api/bookings", "{}", cookie)],
      ["a bad method on a page", () => raw("PUT", "/dashboard", "{}", cookie)],
      ["an impossible date", () => get("/api/availability?date=2026-02-30&hours=2")],
      ["a bad coupon code", () => get(`/api/coupons/validate/${"%00".repeat(5)}`, cookie)],
      [
        "a garbage cookie",
        () => get("/dashboard", { Cookie: "__session=%E0%A4%A; toast-session=x" }),
      ],
      ["a malformed percent-encoding", () => get("/checkout/%E0%A4%A", cookie)],
      ["an unknown API path", () => get("/api/does-not-exist")],
      ["an unknown .data path", () => get("/does-not-exist.data")],
    ];
    for (const [name, provoke] of provocations) {
      const response = await provoke();
      const body = await response.text();
      expect(response.status, `${name}: ${body.slice(0, 200)}`).toBeLessThan(500);
      expectNothingLeaks(body, name);
      for (const [key, value] of response.headers) expectNothingLeaks(`${key}: ${value}`, name);
    }
  });

  it("stores no full card number, paid or declined, by the API or the checkout form", async () => {
    const user = await signUp();
    const cookie = { Cookie: user.cookie };
    const declined = await sendJson(
      "POST",
      `/api/bookings/${await unpaidBooking(user)}/payments/direct`,
      { ...card, cardNumber: DECLINED_DIGITS },
      cookie,
    );
    expect(declined.status).toBe(402);
    const paid = await sendJson(
      "POST",
      `/api/bookings/${await unpaidBooking(user)}/payments/direct`,
      { ...card, cardNumber: CARD_DIGITS },
      cookie,
    );
    expect(paid.status).toBe(200);
    expectNothingLeaks(await paid.text(), "the payment answer");
    const form = await postForm(`/checkout/${await unpaidBooking(user)}`, card, cookie);
    expect(form.status).toBe(302);
    // Every table SQLite holds, through the driver: one the schema does not name counts too.
    const sqlite = db().$client;
    const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    for (const { name } of tables) {
      const rows = JSON.stringify(sqlite.prepare(`SELECT * FROM "${name}"`).all());
      expect(rows, name).not.toContain(CARD_DIGITS);
      expect(rows, name).not.toContain(DECLINED_DIGITS);
    }
  });

  it("logs no stack trace, SQL, secret, password or card number", () => {
    const log = server.output();
    expectNothingLeaks(log, "the server log");
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain(DECLINED_DIGITS);
  });
});
