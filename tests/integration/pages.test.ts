import { describe, expect, it } from "vitest";
import { cookiesFrom, registrationPayload, uniqueUsername } from "../setup/server";
import { serverForThisFile } from "../setup/server-for-this-file";

const server = serverForThisFile();

const userCount = () => server.count("users");

function postForm(
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, ...headers },
    body: new URLSearchParams(fields),
  });
}

function registerFields(overrides: Record<string, string> = {}) {
  const payload = registrationPayload();
  return {
    intent: "register",
    username: uniqueUsername("form"),
    password: payload.password,
    confirmPassword: payload.password,
    firstName: payload.firstName,
    lastName: payload.lastName,
    phoneNumber: payload.phoneNumber,
    email: payload.email,
    businessName: "",
    ...overrides,
  };
}

describe("the /auth form (no JavaScript needed)", () => {
  it("registers, signs in and redirects home with the success toast", async () => {
    const response = await postForm("/auth?tab=register", registerFields());
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const cookie = cookiesFrom(response);
    expect(cookie).toMatch(/__session=/);
    const home = await fetch(`${server.url}/`, { headers: { Cookie: cookie } });
    const html = await home.text();
    expect(html).toContain("Registration successful");
    expect(html).toContain('id="dashboard"');
  });

  it("re-renders with the spec's messages and writes nothing on bad input", async () => {
    const before = userCount();
    const response = await postForm(
      "/auth?tab=register",
      registerFields({ confirmPassword: "something-else", email: "x" }),
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Passwords don&#x27;t match");
    expect(html).toContain("Please enter a valid email address");
    expect(userCount()).toBe(before);
  });

  it("ignores a filled honeypot", async () => {
    const before = userCount();
    const response = await postForm(
      "/auth?tab=register",
      registerFields({ website: "https://spam.example" }),
    );
    expect(response.status).toBe(400);
    expect(userCount()).toBe(before);
  });

  it("logs in, and refuses a wrong password without saying which part was wrong", async () => {
    const fields = registerFields();
    await postForm("/auth?tab=register", fields);
    const wrong = await postForm("/auth", {
      intent: "login",
      username: fields.username,
      password: "not-the-password",
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Invalid username or password");

    const ok = await postForm("/auth", {
      intent: "login",
      username: fields.username,
      password: fields.password,
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/");
  });

  it("requires a username", async () => {
    const response = await postForm("/auth", {
      intent: "login",
      username: "",
      password: "whatever12",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Username is required");
  });

  it("answers an unknown intent with 400, not 500", async () => {
    const response = await postForm("/auth", { intent: "format-disk" });
    expect(response.status).toBe(400);
  });

  it("refuses a cross-site form post and writes nothing", async () => {
    const before = userCount();
    const response = await postForm("/auth?tab=register", registerFields(), {
      Origin: "https://evil.example",
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(userCount()).toBe(before);
  });
});

describe("redirects of the routes table", () => {
  async function signedInCookie(isAdmin = false) {
    const fields = registerFields();
    const response = await postForm("/auth?tab=register", fields);
    if (isAdmin) {
      // Promotion is an admin action of a later issue; the test promotes directly.
      const { default: Database } = await import("better-sqlite3");
      const writer = new Database(server.dbPath);
      writer.prepare("UPDATE users SET is_admin = 1 WHERE username = ?").run(fields.username);
      writer.close();
    }
    return cookiesFrom(response)
      .split("; ")
      .filter((c) => c.startsWith("__session="))
      .join("; ");
  }

  const get = (path: string, cookie?: string) =>
    fetch(`${server.url}${path}`, {
      redirect: "manual",
      headers: cookie ? { Cookie: cookie } : {},
    });

  it("sends visitors to /auth from /dashboard, /admin and /admin/dashboard", async () => {
    for (const path of ["/dashboard", "/admin", "/admin/dashboard", "/dashboard.data"]) {
      const response = await get(path);
      if (path.endsWith(".data")) {
        // Single-fetch data requests carry the redirect in the payload with a 202/204 status.
        expect(response.status).toBeLessThan(500);
        expect(response.headers.get("X-Remix-Redirect") ?? (await response.text())).toContain(
          "/auth",
        );
      } else {
        expect(response.status).toBe(302);
        expect(response.headers.get("Location")).toBe("/auth");
      }
    }
  });

  it("sends a customer from /admin to /dashboard and a signed-in user from /auth to /", async () => {
    const cookie = await signedInCookie();
    const admin = await get("/admin", cookie);
    expect(admin.headers.get("Location")).toBe("/dashboard");
    const auth = await get("/auth", cookie);
    expect(auth.headers.get("Location")).toBe("/");
    const dashboard = await get("/dashboard", cookie);
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("lets an admin into /admin and /admin/dashboard", async () => {
    const cookie = await signedInCookie(true);
    for (const path of ["/admin", "/admin/dashboard"]) {
      const response = await get(path, cookie);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("Admin Dashboard");
    }
  });
});

describe("pages and headers", () => {
  it("answers unknown paths and /booking-canceled with the 404 screen", async () => {
    for (const path of ["/no-such-page", "/booking-canceled", "/api/nothing-here"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("404 Page Not Found");
    }
  });

  it("sends a fresh CSP nonce per response and puts it on every script", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 2; i += 1) {
      const response = await fetch(`${server.url}/`);
      const csp = response.headers.get("Content-Security-Policy") ?? "";
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      expect(csp).toContain("frame-ancestors 'none'");
      const html = await response.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
      nonces.add(nonce as string);
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d+/);
      // Visitors get no cookie at all.
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    expect(nonces.size).toBe(2);
  });

  it("reports health from the database", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("logs out with a POST that ends the session", async () => {
    const fields = registerFields();
    const cookie = cookiesFrom(await postForm("/auth?tab=register", fields));
    const logout = await postForm("/logout", {}, { Cookie: cookie });
    expect(logout.status).toBe(302);
    expect(logout.headers.get("Location")).toBe("/");
    const after = await fetch(`${server.url}/dashboard`, {
      redirect: "manual",
      headers: { Cookie: cookie },
    });
    expect(after.headers.get("Location")).toBe("/auth");
  });
});
