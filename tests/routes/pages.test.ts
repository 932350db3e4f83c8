import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "#db/schema";
import { openDatabaseFile } from "#tests/factories/database";
import { cookiesFrom, logLines, registrationPayload, uniqueUsername } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";

const server = appForThisFile();

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

  it("gives the booking form on / and, on /dashboard, a link to it", async () => {
    const response = await postForm("/auth?tab=register", registerFields());
    const cookie = cookiesFrom(response);
    const home = await (await fetch(`${server.url}/`, { headers: { Cookie: cookie } })).text();
    expect(home).toContain('id="booking-form"');
    const dashboard = await (
      await fetch(`${server.url}/dashboard`, { headers: { Cookie: cookie } })
    ).text();
    expect(dashboard).toContain('id="dashboard"');
    expect(dashboard).toContain('id="booking"');
    expect(dashboard).not.toContain('id="booking-form"');
    expect(dashboard).toMatch(/<a [^>]*href="\/#booking-form"[^>]*>Book a session<\/a>/);
  });

  it("re-renders with the messages of docs/product.md 'Validation' and writes nothing on bad input", async () => {
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

  it("refuses a taken username with the API's 400 and writes nothing", async () => {
    const fields = registerFields();
    await postForm("/auth?tab=register", fields);
    const before = userCount();
    const again = await postForm(
      "/auth?tab=register",
      registerFields({ username: fields.username.toUpperCase() }),
    );
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("Username already exists");
    expect(cookiesFrom(again)).not.toContain("__session");
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
});

describe("redirects of the routes table", () => {
  async function signedInCookie(isAdmin = false) {
    const fields = registerFields();
    const response = await postForm("/auth?tab=register", fields);
    if (isAdmin) {
      // Promotion is an admin action of a later issue; the test promotes directly.
      const writer = openDatabaseFile(server.dbPath);
      writer.update(users).set({ isAdmin: true }).where(eq(users.username, fields.username)).run();
      writer.$client.close();
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

  it("opens the Bookings tab for an admin at /admin and /admin/dashboard, filters kept", async () => {
    const cookie = await signedInCookie(true);
    for (const path of ["/admin", "/admin/dashboard"]) {
      const response = await get(`${path}?status=PENDING`, cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/admin/bookings?status=PENDING");
    }
    const page = await get("/admin/bookings", cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Admin Dashboard");
  });
});

describe("pages and headers", () => {
  it("answers unknown paths and /booking-canceled with the 404 screen", async () => {
    // An unknown /api/* path answers JSON instead (json-errors.test.ts).
    for (const path of ["/no-such-page", "/booking-canceled"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("404 Page Not Found");
    }
  });

  it("reports health from the database", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("reports readiness: writable, at the head of the migrations, outbox moving", async () => {
    const ready = async () => {
      const response = await fetch(`${server.url}/healthz/ready`);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      return { status: response.status, body: await response.json() };
    };
    expect(await ready()).toEqual({ status: 200, body: { status: "ready" } });

    // A database a migration behind this build (as after restoring an old backup by hand).
    const writer = openDatabaseFile(server.dbPath);
    try {
      const last = writer.$client
        .prepare("SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at DESC")
        .get() as { hash: string; created_at: number };
      writer.$client
        .prepare("DELETE FROM __drizzle_migrations WHERE created_at = ?")
        .run(last.created_at);
      try {
        // The public learns only that it is not ready; the reason is in the log.
        expect(await ready()).toEqual({ status: 503, body: { status: "unavailable" } });
        await expect
          .poll(() => logLines(server.output()))
          .toContainEqual(
            expect.objectContaining({
              msg: "readiness: not ready",
              checks: { database: "ok", migrations: "1 migration(s) not applied", outbox: "ok" },
            }),
          );
      } finally {
        writer.$client
          .prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)")
          .run(last.hash, last.created_at);
      }
    } finally {
      writer.$client.close();
    }
    expect((await ready()).status).toBe(200);
  });
});
