import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "#db/schema";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";

const server = appForThisFile();

const userCount = () => server.count("users");

function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

async function register(overrides: Record<string, unknown> = {}) {
  const payload = registrationPayload(overrides);
  const response = await postJson("/api/register", payload);
  return { payload, response, cookie: cookiesFrom(response) };
}

describe("POST /api/register", () => {
  it("creates the user, signs them in and never returns the password hash", async () => {
    const { payload, response, cookie } = await register({ isStakeholder: true });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({
      username: payload.username,
      firstName: "Ada",
      isStakeholder: true,
      isAdmin: false,
      isMember: false,
    });
    expect(JSON.stringify(body)).not.toMatch(/password|argon2/i);
    const me = await fetch(`${server.url}/api/user`, { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
    expect((await me.json()).username).toBe(payload.username);
    const stored = server.db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.username, String(payload.username)))
      .get();
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it("refuses a taken username, whatever its case, and writes nothing", async () => {
    const { payload } = await register();
    const before = userCount();
    const again = await postJson(
      "/api/register",
      registrationPayload({ username: payload.username.toUpperCase() }),
    );
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ message: "Username already exists" });
    expect(userCount()).toBe(before);
  });

  it.each([
    [{ email: "not-an-email" }, "Please enter a valid email address"],
    [{ phoneNumber: "123" }, "Please enter a valid phone number"],
    [{ firstName: "  " }, "First name is required"],
    [{ lastName: "" }, "Last name is required"],
    [{ password: "short" }, "Password must be at least 8 characters"],
    [{ password: "long-enough-1", confirmPassword: "different-22" }, "Passwords don't match"],
    [{ username: "" }, "Username is required"],
  ])(
    "rejects %o with the message of docs/product.md 'Validation' and writes nothing",
    async (overrides, message) => {
      const before = userCount();
      const response = await postJson("/api/register", registrationPayload(overrides));
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(message);
      expect(userCount()).toBe(before);
    },
  );

  it("answers malformed bodies with 4xx and a message", async () => {
    const notJson = await fetch(`${server.url}/api/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{nope",
    });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).message).toBe("The request body is not valid JSON");

    const form = await fetch(`${server.url}/api/register`, {
      method: "POST",
      body: new URLSearchParams({ a: "b" }),
    });
    expect(form.status).toBe(415);

    for (const body of ["null", "[]", "42", '{"username": {"$gt": ""}}']) {
      const response = await fetch(`${server.url}/api/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      });
      expect(response.status).toBe(400);
      expect(typeof (await response.json()).message).toBe("string");
    }
  });
});

describe("POST /api/login and /api/logout", () => {
  it("logs in with a new sign-in id each time and answers the user JSON", async () => {
    const { payload, cookie: firstCookie } = await register();
    const response = await postJson(
      "/api/login",
      { username: payload.username, password: payload.password },
      { Cookie: firstCookie },
    );
    expect(response.status).toBe(200);
    expect((await response.json()).username).toBe(payload.username);
    const newCookie = cookiesFrom(response);
    expect(newCookie).toMatch(/^__session=/);
    expect(newCookie).not.toBe(firstCookie);
    // The sign-in the browser carried before the login is ended, not kept alive beside it.
    const old = await fetch(`${server.url}/api/user`, { headers: { Cookie: firstCookie } });
    expect(old.status).toBe(401);
  });

  it("gives one answer for a wrong password and an unknown user", async () => {
    const { payload } = await register();
    const wrong = await postJson("/api/login", {
      username: payload.username,
      password: "wrong-password",
    });
    const unknown = await postJson("/api/login", {
      username: "nobody-here",
      password: "wrong-password",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: "Invalid username or password" });
    expect(await unknown.json()).toEqual({ message: "Invalid username or password" });
  });

  it("validates the login payload", async () => {
    const response = await postJson("/api/login", { username: "", password: "whatever1" });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("Username is required");
  });

  it("refuses other methods with 405", async () => {
    for (const path of ["/api/login", "/api/register", "/api/logout"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(405);
      expect((await response.json()).message).toBe("Method not allowed");
    }
  });
});

describe("GET /api/user", () => {
  it("is 401 with a message when signed out, and not cacheable when signed in", async () => {
    const anonymous = await fetch(`${server.url}/api/user`);
    expect(anonymous.status).toBe(401);
    const { cookie } = await register();
    const signedIn = await fetch(`${server.url}/api/user`, { headers: { Cookie: cookie } });
    expect(signedIn.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("ignores a forged or expired sign-in cookie", async () => {
    const forged = await fetch(`${server.url}/api/user`, {
      headers: { Cookie: "__session=abc.def" },
    });
    expect(forged.status).toBe(401);
  });
});

describe("logs", () => {
  it("hold no stack trace, SQL or secret", () => {
    const output = server.output();
    expect(output).not.toMatch(/\n\s+at /);
    expect(output).not.toMatch(/SELECT|INSERT|argon2id|integration-test-secret/);
  });
});
