import { randomBytes } from "node:crypto";
import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { createBooking } from "#tests/factories/booking";
import { createCoupon } from "#tests/factories/catalog";
import { createSignIn, SIGN_IN_COOKIE_NAME, signInCookieValue } from "#tests/factories/sign-in";
import { createUser, PASSWORD } from "#tests/factories/user";
import { actorsFor } from "#tests/setup/actors";
import { INTEGRATION_SESSION_SECRET } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * The test-data factories against the app in process: what they write is what the app
 * reads. A factory user signs in with its password (the app's own argon2id hash), a factory
 * sign-in row with its cookie is a signed-in browser (how the browser suite signs in),
 * and factory rows show through the API as the app's own would.
 */
const server = appForThisFile();
const { db } = actorsFor(server);

const get = (path: string, cookie?: string) =>
  fetch(`${server.url}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

describe("the factories", () => {
  it("make a user who signs in with the password, through the login API", async () => {
    const user = await createUser(db());
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const login = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: user.username, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const wrong = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: user.username, password: `${PASSWORD}-not` }),
    });
    expect(wrong.status).toBe(401);
  });

  it("make a sign-in row whose cookie is a signed-in browser, until it expires", async () => {
    const user = await createUser(db(), { firstName: "Grace", isAdmin: true });
    const signIn = createSignIn(db(), { userId: user.id });
    const cookie = `${SIGN_IN_COOKIE_NAME}=${signInCookieValue(signIn.id)}`;
    const me = await get("/api/user", cookie);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: user.id, firstName: "Grace", isAdmin: true });

    // A guessed id is no sign-in: ids are 256 random bits, so the cookie is not signed (0092).
    const guessed = `${SIGN_IN_COOKIE_NAME}=${signInCookieValue(randomBytes(32).toString("base64url"))}`;
    expect((await get("/api/user", guessed)).status).toBe(401);
    // The signed format of before decision 0092, even of a live sign-in, is no sign-in.
    const signed = await createCookie(SIGN_IN_COOKIE_NAME, {
      secrets: [INTEGRATION_SESSION_SECRET],
    }).serialize(signIn.id);
    expect((await get("/api/user", signed.split(";")[0] ?? "")).status).toBe(401);
    const expired = createSignIn(db(), { userId: user.id, expiresAt: Date.now() - 1000 });
    const stale = `${SIGN_IN_COOKIE_NAME}=${signInCookieValue(expired.id)}`;
    expect((await get("/api/user", stale)).status).toBe(401);
  });

  it("make bookings and coupons the API reads as the app's own", async () => {
    const user = await createUser(db());
    const cookie = `${SIGN_IN_COOKIE_NAME}=${signInCookieValue(createSignIn(db(), { userId: user.id }).id)}`;
    const booking = createBooking(db(), { user, date: "2031-05-06", time: "14:00", hours: 3 });
    const listed = (await (await get("/api/bookings", cookie)).json()) as Record<string, unknown>[];
    expect(listed.find((row) => row.id === booking.id)).toMatchObject({
      recordingDate: "2031-05-06",
      recordingTime: "14:00",
      hoursNeeded: "3",
      totalCost: 600,
      status: "CONFIRMED",
      firstName: user.firstName,
    });

    const coupon = createCoupon(db(), { type: "FIXED_AMOUNT", value: 2500 });
    const validated = await get(`/api/coupons/validate/${coupon.code}`, cookie);
    expect(await validated.json()).toMatchObject({ isValid: true });
  });
});
