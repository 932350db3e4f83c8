import { existsSync, readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { signIns } from "#db/schema";
import { storedTotpSecret } from "#tests/factories/two-factor";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { PASSWORD } from "#tests/setup/payloads";
import { cookiesFrom } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * Profile Settings and its JSON twin: PUT /api/users/{id}/profile changes only the caller's
 * own profile, and the dashboard's password form ends every other sign-in of the account.
 */
const server = appForThisFile();
const { signUp, signUpAdmin, snapshot } = actorsFor(server);

const NEW_PROFILE = {
  firstName: "Grace",
  lastName: "Hopper",
  businessName: "Compiler Cast",
  phoneNumber: "+1 (404) 555-0199",
  email: "grace@example.com",
  isStakeholder: true,
};

function putProfile(id: number | string, body: unknown, cookie?: string) {
  return fetch(`${server.url}/api/users/${id}/profile`, {
    method: "PUT",
    headers: {
      "Content-Type": "application/json",
      Origin: server.url,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function me(cookie: string) {
  return fetch(`${server.url}/api/user`, { headers: { Cookie: cookie } });
}

/** A form post to the dashboard as a page without JavaScript sends it. */
function postDashboard(cookie: string, fields: Record<string, string>) {
  return fetch(`${server.url}/dashboard?tab=profile`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: server.url },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/** A second browser of the same person: a login of its own. */
async function secondSignIn(actor: Actor): Promise<string> {
  const response = await fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: actor.username, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return cookiesFrom(response);
}

function passwordForm(current: string, next: string, confirm = next) {
  return {
    intent: "password",
    currentPassword: current,
    newPassword: next,
    confirmNewPassword: confirm,
  };
}

describe("PUT /api/users/{id}/profile", () => {
  it("replaces the caller's profile and answers the user as GET /api/user does", async () => {
    const customer = await signUp();
    const response = await putProfile(customer.id, NEW_PROFILE, customer.cookie);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      id: customer.id,
      username: customer.username,
      isAdmin: false,
      isMember: false,
      ...NEW_PROFILE,
    });
    expect(await (await me(customer.cookie)).json()).toEqual(body);
  });

  it("clears the business name when it is empty or null", async () => {
    const customer = await signUp();
    for (const businessName of ["", null, "  "]) {
      const response = await putProfile(
        customer.id,
        { ...NEW_PROFILE, businessName },
        customer.cookie,
      );
      expect(response.status).toBe(200);
      expect((await response.json()).businessName).toBeNull();
    }
  });

  it("ignores the fields a customer does not own (admin, member, username, password)", async () => {
    const customer = await signUp();
    const response = await putProfile(
      customer.id,
      { ...NEW_PROFILE, isAdmin: true, isMember: true, username: "root", password: "x".repeat(9) },
      customer.cookie,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      isAdmin: false,
      isMember: false,
      username: customer.username,
    });
    expect((await secondSignIn(customer)).length).toBeGreaterThan(0);
  });

  it("answers another user's id as missing, to customers and admins, and writes nothing", async () => {
    const customer = await signUp();
    const other = await signUp();
    const admin = await signUpAdmin();
    for (const [caller, target] of [
      [other, customer],
      [admin, customer],
      [customer, admin],
    ] as const) {
      const before = snapshot();
      const response = await putProfile(target.id, NEW_PROFILE, caller.cookie);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: "User not found" });
      expect(snapshot()).toEqual(before);
    }
    const before = snapshot();
    for (const id of ["999999", "0", "-1", "abc", "1e1", `${customer.id}.0`]) {
      const response = await putProfile(id, NEW_PROFILE, customer.cookie);
      expect(response.status, id).toBe(404);
    }
    expect(snapshot()).toEqual(before);
  });

  it("is 401 for a visitor and 405 for other methods, writing nothing", async () => {
    const customer = await signUp();
    const before = snapshot();
    const visitor = await putProfile(customer.id, NEW_PROFILE);
    expect(visitor.status).toBe(401);
    expect((await visitor.json()).message).toBe("Not authenticated");
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
      const response = await fetch(`${server.url}/api/users/${customer.id}/profile`, {
        method,
        headers: { Cookie: customer.cookie, Origin: server.url },
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("Allow")).toBe("PUT");
    }
    expect(snapshot()).toEqual(before);
  });

  it.each([
    [{ firstName: " " }, "First name is required"],
    [{ lastName: undefined }, "Last name is required"],
    [{ email: "grace@" }, "Please enter a valid email address"],
    [{ phoneNumber: "555-0199" }, "Please enter a valid phone number"],
    [{ isStakeholder: "yes" }, "isStakeholder must be true or false"],
    [{ isStakeholder: undefined }, "isStakeholder must be true or false"],
    [{ businessName: "x".repeat(121) }, "Business name must be at most 120 characters"],
  ])("refuses %o with 400 and the message, writing nothing", async (overrides, message) => {
    const customer = await signUp();
    const before = snapshot();
    const response = await putProfile(
      customer.id,
      { ...NEW_PROFILE, ...overrides },
      customer.cookie,
    );
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(message);
    expect(snapshot()).toEqual(before);
  });

  it("refuses a cookie-carrying PUT from another site", async () => {
    const customer = await signUp();
    const before = snapshot();
    const response = await fetch(`${server.url}/api/users/${customer.id}/profile`, {
      method: "PUT",
      headers: {
        "Content-Type": "application/json",
        Cookie: customer.cookie,
        Origin: "https://evil.example",
      },
      body: JSON.stringify(NEW_PROFILE),
    });
    expect(response.status).toBe(403);
    expect(snapshot()).toEqual(before);
  });

  it("answers bodies that are not a profile with 4xx and a message", async () => {
    const customer = await signUp();
    const before = snapshot();
    for (const body of ["{nope", "null", "[]", "42", '"text"']) {
      const response = await putProfile(customer.id, body, customer.cookie);
      expect(response.status, body).toBe(400);
      expect(typeof (await response.json()).message).toBe("string");
    }
    const form = await fetch(`${server.url}/api/users/${customer.id}/profile`, {
      method: "PUT",
      headers: { Cookie: customer.cookie, Origin: server.url },
      body: new URLSearchParams({ firstName: "Grace" }),
    });
    expect(form.status).toBe(415);
    expect(snapshot()).toEqual(before);
  });
});

describe("the Profile Settings form (POST /dashboard, intent profile)", () => {
  it("saves, then redirects back to the tab; the booking form prefills from it", async () => {
    const customer = await signUp();
    const response = await postDashboard(customer.cookie, {
      intent: "profile",
      ...NEW_PROFILE,
      isStakeholder: "on",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard?tab=profile");
    expect(await (await me(customer.cookie)).json()).toMatchObject(NEW_PROFILE);
    const home = await (
      await fetch(`${server.url}/`, { headers: { Cookie: customer.cookie } })
    ).text();
    expect(home).toContain('value="Compiler Cast"');
    expect(home).toContain('value="grace@example.com"');
  });

  it("re-renders a refusal with the field's error and writes nothing", async () => {
    const customer = await signUp();
    const before = snapshot();
    const response = await postDashboard(customer.cookie, {
      intent: "profile",
      ...NEW_PROFILE,
      isStakeholder: "on",
      phoneNumber: "12",
    });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("Please enter a valid phone number");
    // The toast of a page without JavaScript is rendered in the same answer.
    expect(page).toMatch(/data-toast[^>]*>[\s\S]*Error[\s\S]*Please enter a valid phone number/);
    expect(snapshot()).toEqual(before);
  });
});

describe("changing the password (POST /dashboard, intent password)", () => {
  it("stores the new hash, ends every other sign-in and renews the current one", async () => {
    const customer = await signUp();
    const otherBrowser = await secondSignIn(customer);
    const response = await postDashboard(
      customer.cookie,
      passwordForm(PASSWORD, "brand-new-secret"),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard?tab=profile");
    const renewed = cookiesFrom(response)
      .split("; ")
      .filter((cookie) => cookie.startsWith("__session="))
      .join("; ");
    expect(renewed).toMatch(/^__session=/);

    expect((await me(otherBrowser)).status).toBe(401);
    // The cookie the change was sent with is ended too: the browser now holds the new one.
    expect((await me(customer.cookie)).status).toBe(401);
    expect((await me(renewed)).status).toBe(200);
    expect(
      server.db.select().from(signIns).where(eq(signIns.userId, customer.id)).all(),
    ).toHaveLength(1);

    const oldLogin = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: customer.username, password: PASSWORD }),
    });
    expect(oldLogin.status).toBe(401);
    const newLogin = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: customer.username, password: "brand-new-secret" }),
    });
    expect(newLogin.status).toBe(200);
  });

  it("refuses a wrong current password on its field, never echoing a password", async () => {
    const customer = await signUp();
    const otherBrowser = await secondSignIn(customer);
    const before = snapshot();
    const response = await postDashboard(
      customer.cookie,
      passwordForm("not-my-password", "brand-new-secret"),
    );
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("Your current password is incorrect");
    expect(page).not.toContain("not-my-password");
    expect(page).not.toContain("brand-new-secret");
    expect(snapshot()).toEqual(before);
    expect((await me(otherBrowser)).status).toBe(200);
  });

  it.each([
    [passwordForm(PASSWORD, "brand-new-secret", "brand-new-secreT"), "Passwords don't match"],
    [passwordForm(PASSWORD, "short"), "Password must be at least 8 characters"],
    [passwordForm("", "brand-new-secret"), "Please enter your current password"],
  ])("refuses %o with %o and writes nothing", async (fields, message) => {
    const customer = await signUp();
    const before = snapshot();
    const response = await postDashboard(customer.cookie, fields);
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain(message);
    expect(page).not.toContain("brand-new-secre");
    expect(snapshot()).toEqual(before);
  });
});

describe("Sign out of all devices (POST /dashboard, intent sign-out-other-devices)", () => {
  it("ends every other sign-in of the account, keeps this one and says so", async () => {
    const customer = await signUp();
    const otherBrowser = await secondSignIn(customer);
    const someoneElse = await signUp();
    const response = await postDashboard(customer.cookie, { intent: "sign-out-other-devices" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard?tab=profile");
    const page = await (
      await fetch(`${server.url}/dashboard?tab=profile`, {
        headers: { Cookie: [customer.cookie, cookiesFrom(response)].join("; ") },
      })
    ).text();
    expect(page).toContain("Signed out of all other devices");
    expect((await me(otherBrowser)).status).toBe(401);
    expect((await me(customer.cookie)).status).toBe(200);
    expect((await me(someoneElse.cookie)).status).toBe(200);
    expect(
      server.db.select().from(signIns).where(eq(signIns.userId, customer.id)).all(),
    ).toHaveLength(1);
  });

  it("is on Profile Settings as a form that posts without JavaScript", async () => {
    const customer = await signUp();
    const page = await (
      await fetch(`${server.url}/dashboard?tab=profile`, { headers: { Cookie: customer.cookie } })
    ).text();
    const form = page.match(
      /<form[^>]*>(?:(?!<\/form>)[\s\S])*sign-out-other-devices[\s\S]*?<\/form>/,
    )?.[0];
    expect(form).toMatch(/method="post"/);
    expect(form).toMatch(
      /<button type="submit"[^>]*value="sign-out-other-devices"[^>]*name="intent"/,
    );
    expect(form).toContain("Sign out of all devices");
  });
});

describe("secrets at rest", () => {
  it("the database file holds no sign-in cookie and no TOTP secret as they are", async () => {
    const customer = await signUp();
    // Setting up two-factor stores the secret that is waiting for its first code.
    const setup = await fetch(`${server.url}/dashboard/two-factor`, {
      method: "POST",
      headers: { Cookie: customer.cookie, Origin: server.url },
      body: new URLSearchParams({ intent: "start" }),
      redirect: "manual",
    });
    expect(setup.status).toBeLessThan(400);
    const secret = storedTotpSecret(server.db, customer.id);
    const cookieValue = customer.cookie.match(/__session=([^;]+)/)?.[1] ?? "";
    expect(cookieValue).toHaveLength(43);
    const file = Buffer.concat(
      ["", "-wal"]
        .filter((suffix) => existsSync(server.dbPath + suffix))
        .map((suffix) => readFileSync(server.dbPath + suffix)),
    );
    expect(file.includes(Buffer.from(cookieValue))).toBe(false);
    expect(file.includes(Buffer.from(secret))).toBe(false);
  });
});

describe("logs", () => {
  it("hold no password, stack trace or SQL", () => {
    const output = server.output();
    expect(output).not.toMatch(/brand-new-secret|not-my-password|\n\s+at |SELECT|UPDATE/);
  });
});
