import { describe, expect, it } from "vitest";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { actorsFor } from "#tests/setup/actors";
import { bookingFormFields, registerFormFields } from "#tests/setup/payloads";
import { cookiesFrom, registrationPayload, uniqueUsername } from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";
import { viaFlyProxy } from "#tests/setup/proxy";

/**
 * Behind Fly's TLS proxy (TRUST_PROXY=true): the browser's origin is https://<host> while the
 * server listens on plain HTTP, and the client address is Fly-Client-IP. Same-origin posts must
 * still work, cross-site ones must still fail, and rate limits must follow Fly-Client-IP, never
 * the client-controlled X-Forwarded-For.
 */
const server = serverForThisFile({
  TRUST_PROXY: "true",
  LOGIN_RATE_LIMIT: "3",
  REGISTER_RATE_LIMIT: "2",
  SESSION_MAX_AGE_DAYS: "1",
});
const { snapshot } = actorsFor(server);

/** Each test is its own client for the rate limits; requests as Fly's proxy forwards them. */
const { newClient, viaProxy } = viaFlyProxy(server, "203.0.113");

const postJson = (path: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

const postForm = (path: string, fields: Record<string, string>, headers: Record<string, string>) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers,
    body: new URLSearchParams(fields),
  });

const registerFields = () => registerFormFields(uniqueUsername("proxy"));

describe("same-origin posts behind the proxy", () => {
  it("register, book and log out through the forms and the API with an https Origin", async () => {
    const form = await postForm("/auth?tab=register", registerFields(), viaProxy(newClient()));
    expect(form.status).toBe(302);
    expect(form.headers.get("Location")).toBe("/");
    const cookie = cookiesFrom(form);

    const api = await postJson("/api/register", registrationPayload(), viaProxy(newClient()));
    expect(api.status).toBe(201);

    const booking = await postForm(
      "/?index",
      {
        intent: "book",
        ...bookingFormFields(addStudioDays(earliestBookableDate(Date.now()), 2), "10:00"),
      },
      viaProxy(newClient(), { Cookie: cookie }),
    );
    expect(booking.status).toBe(302);
    expect(booking.headers.get("Location")).toMatch(/^\/checkout\/\d+/);

    const logout = await postForm("/logout", {}, viaProxy(newClient(), { Cookie: cookie }));
    expect(logout.status).toBe(302);
    const after = await fetch(`${server.url}/api/user`, { headers: { Cookie: cookie } });
    expect(after.status).toBe(401);
  });

  it("sets Secure cookies with the configured lifetime", async () => {
    const response = await postJson("/api/register", registrationPayload(), viaProxy(newClient()));
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__session="));
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Max-Age=86400(;|$)/i);
  });

  it("refuses an https Origin the proxy did not vouch for, and a foreign one it did", async () => {
    const host = new URL(server.url).host;
    const attempts: [string, Record<string, string>][] = [
      ["no X-Forwarded-Proto", { Origin: `https://${host}`, "Fly-Client-IP": newClient() }],
      ["an http Origin via https", viaProxy(newClient(), { Origin: `http://${host}` })],
      ["a foreign Origin", viaProxy(newClient(), { Origin: "https://evil.example" })],
      [
        "a foreign Origin naming itself in X-Forwarded-Host",
        viaProxy(newClient(), {
          Origin: "https://evil.example",
          "X-Forwarded-Host": "evil.example",
        }),
      ],
      ["Sec-Fetch-Site: cross-site", viaProxy(newClient(), { "Sec-Fetch-Site": "cross-site" })],
    ];
    for (const [name, headers] of attempts) {
      const before = snapshot();
      const api = await postJson("/api/register", registrationPayload(), headers);
      expect(api.status, `API, ${name}`).toBe(403);
      const page = await postForm("/auth?tab=register", registerFields(), headers);
      // React Router's own Origin check answers pages first (400); ours answers the rest.
      expect([400, 403], `form, ${name}`).toContain(page.status);
      expect(snapshot(), name).toEqual(before);
    }
  });
});

describe("the request id behind the proxy", () => {
  it("is Fly's Fly-Request-Id, never the caller's X-Request-Id", async () => {
    const fly = await fetch(`${server.url}/`, {
      headers: viaProxy(newClient(), { "Fly-Request-Id": "01JABCD-fly-42", "X-Request-Id": "x-7" }),
    });
    expect(fly.headers.get("X-Request-Id")).toBe("01JABCD-fly-42");
    const caller = await fetch(`${server.url}/`, {
      headers: viaProxy(newClient(), { "X-Request-Id": "trace-7" }),
    });
    expect(caller.headers.get("X-Request-Id")).not.toBe("trace-7");
    expect(caller.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("rate limits behind the proxy", () => {
  const wrongLogin = { username: "someone", password: "wrong-password" };

  it("counts login attempts per Fly-Client-IP, whatever X-Forwarded-For says, form and API", async () => {
    const client = newClient();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await postJson(
        "/api/login",
        wrongLogin,
        viaProxy(client, { "X-Forwarded-For": `10.9.0.${attempt}` }),
      );
      statuses.push(response.status);
    }
    const viaForm = await postForm(
      "/auth",
      { intent: "login", ...wrongLogin },
      viaProxy(client, { "X-Forwarded-For": "10.9.0.99" }),
    );
    statuses.push(viaForm.status);
    const viaApi = await postJson(
      "/api/login",
      wrongLogin,
      viaProxy(client, { "X-Forwarded-For": "10.9.0.100, 10.9.0.101" }),
    );
    statuses.push(viaApi.status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(await viaForm.text()).toContain("Too many attempts");

    // Another client (another Fly-Client-IP) is not punished for it.
    const other = await postJson("/api/login", wrongLogin, viaProxy(newClient()));
    expect(other.status).toBe(401);
  });

  it("counts registrations per Fly-Client-IP and writes nothing when limited", async () => {
    const client = newClient();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await postJson(
        "/api/register",
        registrationPayload(),
        viaProxy(client, { "X-Forwarded-For": `10.8.0.${attempt}` }),
      );
      expect(response.status).toBe(201);
    }
    const before = snapshot();
    const api = await postJson(
      "/api/register",
      registrationPayload(),
      viaProxy(client, { "X-Forwarded-For": "10.8.0.50" }),
    );
    expect(api.status).toBe(429);
    const form = await postForm(
      "/auth?tab=register",
      registerFields(),
      viaProxy(client, { "X-Forwarded-For": "10.8.0.51" }),
    );
    expect(form.status).toBe(429);
    expect(snapshot()).toEqual(before);
  });
});
