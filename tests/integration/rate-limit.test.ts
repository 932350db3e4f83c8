import { expect, it } from "vitest";
import { registrationPayload } from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

const server = serverForThisFile({ LOGIN_RATE_LIMIT: "3", REGISTER_RATE_LIMIT: "2" });

/** Without TRUST_PROXY, neither forwarded header names the client: both are spoofed here. */
const post = (path: string, body: unknown, forwardedFor: string) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Forwarded-For": forwardedFor,
      "Fly-Client-IP": forwardedFor,
    },
    body: JSON.stringify(body),
  });

it("limits login attempts per client, and a spoofed X-Forwarded-For or Fly-Client-IP buys no new ones", async () => {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const response = await post(
      "/api/login",
      { username: "someone", password: "wrong-password" },
      `10.0.0.${attempt}`,
    );
    statuses.push(response.status);
    if (response.status === 429) {
      expect((await response.json()).message).toMatch(
        /^Too many attempts\. Please try again in \d+ minutes?\.$/,
      );
    }
  }
  expect(statuses).toEqual([401, 401, 401, 429, 429]);
});

it("limits registrations per client and writes nothing when limited", async () => {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    statuses.push(
      (await post("/api/register", registrationPayload(), `192.168.1.${attempt}`)).status,
    );
  }
  expect(statuses).toEqual([201, 201, 429]);
  // The two, and the studio's first admin (registration opens once it exists).
  expect(server.count("users")).toBe(3);
});

it('limits passkey sign-in prompts per client (docs/product.md "Accounts and sign-ins")', async () => {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const response = await fetch(`${server.url}/auth/passkey`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ intent: "options" }),
    });
    statuses.push(response.status);
    if (response.status === 429) {
      expect(response.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect((await response.json()).message).toMatch(/^Too many attempts\. /);
    }
  }
  expect(statuses).toEqual([200, 200, 200, 429]);
});
