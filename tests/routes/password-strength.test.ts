import { describe, expect, it } from "vitest";
import { actorsFor } from "#tests/setup/actors";
import { PASSWORD, registerFormFields } from "#tests/setup/payloads";
import { registrationPayload, uniqueUsername } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * A password being set must be at least 8 characters and not easy to guess (docs/product.md
 * "Validation"): registration (page and API) and the password change refuse a weak one with a
 * message that says why, and write nothing.
 */
const server = appForThisFile();
const { signUp, snapshot } = actorsFor(server);

const WEAK = [
  ["password123", "This password is too easy to guess: it is a commonly used password."],
  ["12345678", "This password is too easy to guess: it is one of the most common passwords."],
  ["qwertyuiop", "This password is too easy to guess: it is one of the most common passwords."],
] as const;
const ADVICE = "Try three or four unrelated words, or a longer password.";

const postForm = (path: string, fields: Record<string, string>, cookie?: string) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
  });

describe.each(WEAK)("the weak password %o", (password, message) => {
  it("is refused by the registration page, with the reason, and nothing is written", async () => {
    const before = snapshot();
    const response = await postForm("/auth?tab=register", {
      ...registerFormFields(uniqueUsername("weak")),
      password,
      confirmPassword: password,
    });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain(message);
    expect(page).toContain(ADVICE);
    expect(page).not.toContain(`value="${password}"`);
    expect(snapshot()).toEqual(before);
  });

  it("is refused by POST /api/register, with the reason, and nothing is written", async () => {
    const before = snapshot();
    const response = await fetch(`${server.url}/api/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(registrationPayload({ password })),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: `${message} ${ADVICE}`,
      errors: { password: [`${message} ${ADVICE}`] },
    });
    expect(snapshot()).toEqual(before);
  });

  it("is refused as a new password in Profile Settings, and nothing is written", async () => {
    const customer = await signUp();
    const before = snapshot();
    const response = await postForm(
      "/dashboard?tab=profile",
      {
        intent: "password",
        currentPassword: PASSWORD,
        newPassword: password,
        confirmNewPassword: password,
      },
      customer.cookie,
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(snapshot()).toEqual(before);
  });
});

it("accepts a password that is hard to guess", async () => {
  const response = await fetch(`${server.url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(registrationPayload({ password: "kindred-parable-1979" })),
  });
  expect(response.status).toBe(201);
});
