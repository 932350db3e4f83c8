import { describe, expect, it } from "vitest";
import { actorsFor } from "#tests/setup/actors";
import { PASSWORD } from "#tests/setup/payloads";
import { cookiesFrom, uniqueUsername } from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * Login throttled per account as well as per address (docs/product.md "Accounts and sign-ins").
 * Behind the proxy (TRUST_PROXY) so every request can come from an address of its own
 * (Fly-Client-IP): the per-account limit must hold however many addresses a guesser has.
 */
const ACCOUNT_LIMIT = 20;
const server = serverForThisFile({
  TRUST_PROXY: "true",
  LOGIN_RATE_LIMIT: "3",
  REGISTER_RATE_LIMIT: "10",
  LOGIN_ACCOUNT_LIMIT: String(ACCOUNT_LIMIT),
});
const { signUp, snapshot } = actorsFor(server);

let clients = 0;
/** A fresh IPv4 client address: the per-address limit never applies to it. */
const freshAddress = () => {
  clients += 1;
  return `198.18.${Math.floor(clients / 250)}.${(clients % 250) + 1}`;
};

function viaProxy(client: string) {
  return { Origin: server.url, "Fly-Client-IP": client };
}

const apiLogin = (username: string, password: string, client = freshAddress(), cookie = "") =>
  fetch(`${server.url}/api/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/json", Cookie: cookie, ...viaProxy(client) },
    body: JSON.stringify({ username, password }),
  });

const formLogin = (username: string, password: string, client = freshAddress(), cookie = "") =>
  fetch(`${server.url}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, ...viaProxy(client) },
    body: new URLSearchParams({ intent: "login", username, password }),
  });

const TOO_MANY = "Too many attempts. Please try again in 1 minute.";

describe("per account", () => {
  it("30 guesses from 30 addresses: the first 20 are checked, the rest meet a 429", async () => {
    const customer = await signUp();
    const statuses: number[] = [];
    for (let guess = 0; guess < 30; guess += 1) {
      // Form and API share the one count.
      const response =
        guess % 2 === 0
          ? await apiLogin(customer.username, `wrong-guess-${guess}`)
          : await formLogin(customer.username, `wrong-guess-${guess}`);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
        expect(await response.text()).toContain(TOO_MANY);
      }
    }
    expect(statuses).toEqual([
      ...Array(ACCOUNT_LIMIT).fill(401),
      ...Array(30 - ACCOUNT_LIMIT).fill(429),
    ]);
  });

  it("refuses the right password past the limit exactly like a wrong one, and signs nobody in", async () => {
    const customer = await signUp();
    for (let guess = 0; guess < ACCOUNT_LIMIT; guess += 1) {
      expect((await apiLogin(customer.username, `wrong-guess-${guess}`)).status).toBe(401);
    }
    const before = snapshot();
    const wrong = await apiLogin(customer.username, "wrong-guess-again");
    const right = await apiLogin(customer.username, PASSWORD);
    for (const response of [wrong, right]) {
      expect(response.status).toBe(429);
      expect(response.headers.get("Set-Cookie")).toBeNull();
    }
    const [wrongBody, rightBody] = [await wrong.json(), await right.json()];
    expect(rightBody).toEqual({ message: TOO_MANY });
    expect(wrongBody).toEqual(rightBody);
    expect(right.headers.get("Retry-After")).toBe(wrong.headers.get("Retry-After"));

    const wrongPage = await formLogin(customer.username, "wrong-guess-again");
    const rightPage = await formLogin(customer.username, PASSWORD);
    expect([wrongPage.status, rightPage.status]).toEqual([429, 429]);
    const pages = [await wrongPage.text(), await rightPage.text()];
    for (const page of pages) expect(page).toContain(TOO_MANY);
    // No sign-in was made for the right password: nothing was written.
    expect(snapshot()).toEqual(before);
  });

  it("throttles a username that belongs to no account the same way", async () => {
    const nobody = uniqueUsername("nobody");
    const statuses: number[] = [];
    for (let guess = 0; guess <= ACCOUNT_LIMIT; guess += 1) {
      statuses.push((await apiLogin(nobody, `wrong-guess-${guess}`)).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, ACCOUNT_LIMIT).every((status) => status === 401)).toBe(true);
  });

  it("counts a username however it is capitalised", async () => {
    const customer = await signUp();
    for (let guess = 0; guess < ACCOUNT_LIMIT; guess += 1) {
      const spelled = guess % 2 === 0 ? customer.username.toUpperCase() : ` ${customer.username} `;
      expect((await apiLogin(spelled, `wrong-guess-${guess}`)).status).toBe(401);
    }
    expect((await apiLogin(customer.username, PASSWORD)).status).toBe(429);
  });

  it("forgets the wrong guesses once the right password signs in", async () => {
    const customer = await signUp();
    for (let guess = 0; guess < ACCOUNT_LIMIT - 1; guess += 1) {
      await apiLogin(customer.username, `wrong-guess-${guess}`);
    }
    expect((await apiLogin(customer.username, PASSWORD)).status).toBe(200);
    for (let guess = 0; guess < ACCOUNT_LIMIT - 1; guess += 1) {
      expect((await apiLogin(customer.username, `wrong-guess-${guess}`)).status).toBe(401);
    }
    expect((await formLogin(customer.username, PASSWORD)).status).toBe(302);
  });
});

describe("known devices (OWASP's device cookie)", () => {
  /** The device cookie of a browser that signed in to `username` once. */
  async function deviceOf(username: string) {
    const signedIn = await formLogin(username, PASSWORD);
    expect(signedIn.status).toBe(302);
    const device = cookiesFrom(signedIn)
      .split("; ")
      .find((cookie) => cookie.startsWith("__device="));
    expect(device).toBeDefined();
    return device ?? "";
  }

  /** A stranger's wrong guesses from fresh addresses, until the username waits. */
  async function lockOut(username: string) {
    for (let guess = 0; guess < ACCOUNT_LIMIT; guess += 1) {
      await apiLogin(username, `stranger-guess-${guess}`);
    }
    expect((await apiLogin(username, PASSWORD)).status).toBe(429);
  }

  it("signs the owner in from a browser that signed in before while a stranger has the username locked", async () => {
    const customer = await signUp();
    const device = await deviceOf(customer.username);
    await lockOut(customer.username);

    expect((await apiLogin(customer.username, PASSWORD, freshAddress(), device)).status).toBe(200);
    expect((await formLogin(customer.username, PASSWORD, freshAddress(), device)).status).toBe(302);
    // Everyone else still waits.
    expect((await formLogin(customer.username, PASSWORD)).status).toBe(429);
  });

  it("gives the device a few wrong passwords of its own, then it waits too", async () => {
    const customer = await signUp();
    const device = await deviceOf(customer.username);
    const statuses: number[] = [];
    for (let guess = 0; guess < 6; guess += 1) {
      statuses.push(
        (await apiLogin(customer.username, "typo-typo", freshAddress(), device)).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Those were not the username's: a browser without the cookie still signs in.
    expect((await apiLogin(customer.username, PASSWORD)).status).toBe(200);
  });

  it("does not let one account's device cookie, or a forged one, help against another", async () => {
    const [owner, other] = [await signUp(), await signUp()];
    const device = await deviceOf(owner.username);
    await lockOut(other.username);
    expect((await apiLogin(other.username, PASSWORD, freshAddress(), device)).status).toBe(429);
    const forged = `__device=${Buffer.from(
      JSON.stringify({ userId: other.id, id: "0123456789abcdef0123456789abcdef" }),
    ).toString("base64")}`;
    expect((await apiLogin(other.username, PASSWORD, freshAddress(), forged)).status).toBe(429);
  });
});

describe("per address", () => {
  it("counts IPv6 clients by their /64, and an IPv4-mapped address as the IPv4 one", async () => {
    const sameNetwork = ["2001:db8:a:b::1", "2001:db8:a:b:ffff::2", "2001:db8:a:b::3"];
    const statuses: number[] = [];
    for (const client of sameNetwork) {
      statuses.push((await apiLogin(uniqueUsername(), "wrong-guess", client)).status);
    }
    statuses.push((await formLogin(uniqueUsername(), "wrong-guess", "2001:db8:a:b::99")).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // The next /64 is another client.
    expect((await apiLogin(uniqueUsername(), "wrong-guess", "2001:db8:a:c::1")).status).toBe(401);

    for (const client of ["203.0.113.200", "::ffff:203.0.113.200", "::ffff:cb00:71c8"]) {
      expect((await apiLogin(uniqueUsername(), "wrong-guess", client)).status).toBe(401);
    }
    expect((await apiLogin(uniqueUsername(), "wrong-guess", "203.0.113.200")).status).toBe(429);
  });

  it("counts registrations by the /64 too", async () => {
    const register = (client: string) =>
      fetch(`${server.url}/api/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...viaProxy(client) },
        body: JSON.stringify({
          username: uniqueUsername(),
          password: PASSWORD,
          firstName: "Ada",
          lastName: "Lovelace",
          phoneNumber: "404-555-0100",
          email: "ada@example.com",
        }),
      });
    // REGISTER_RATE_LIMIT is 10 here: ten addresses of one /64 use it up.
    for (let client = 1; client <= 10; client += 1) {
      expect((await register(`2001:db8:e:f::${client.toString(16)}`)).status).toBe(201);
    }
    const before = snapshot();
    const refused = await register("2001:db8:e:f:1:2:3:4");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(snapshot()).toEqual(before);
    expect((await register("2001:db8:e:10::1")).status).toBe(201);
  });
});
