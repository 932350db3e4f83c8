import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coupons } from "#db/schema";
import { createCoupon } from "#tests/factories/catalog";
import { openDatabaseFile, type TestDatabase } from "#tests/factories/database";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";
import { viaFlyProxy } from "#tests/setup/proxy";

/**
 * Coupon lookups (docs/product.md "Coupons"): the booking form's Apply (and the re-check of an
 * applied code) and GET /api/coupons/validate/{code} are limited per client address and per
 * account, COUPON_LOOKUP_LIMIT (10 here, the default) per 15 minutes; every unusable code answers
 * one message. Behind the proxy (TRUST_PROXY) so each test can be a client address of its own.
 */
const server = serverForThisFile({ TRUST_PROXY: "true", COUPON_LOOKUP_LIMIT: "10" });
const LIMIT = 10;
const UNUSABLE = "This coupon is invalid or has expired.";
const TOO_MANY = /^Too many coupon codes tried\. Please try again in \d+ minutes?\.$/;

let writer: TestDatabase;
beforeAll(() => {
  writer = openDatabaseFile(server.dbPath);
});
afterAll(() => {
  writer?.$client.close();
});

const { newClient, viaProxy } = viaFlyProxy(server, "198.51.100");

async function signUp(client: string) {
  const response = await fetch(`${server.url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...viaProxy(client) },
    body: JSON.stringify(registrationPayload()),
  });
  expect(response.status).toBe(201);
  return cookiesFrom(response);
}

/** The booking form posted without JavaScript (a document request to `/?index`). */
async function postForm(fields: Record<string, string>, client: string, cookie?: string) {
  const response = await fetch(`${server.url}/?index`, {
    method: "POST",
    redirect: "manual",
    headers: viaProxy(client, cookie ? { Cookie: cookie } : {}),
    body: new URLSearchParams(fields),
  });
  return { response, body: await response.text() };
}

async function validate(code: string, client: string, cookie?: string) {
  const response = await fetch(`${server.url}/api/coupons/validate/${encodeURIComponent(code)}`, {
    headers: viaProxy(client, cookie ? { Cookie: cookie } : {}),
  });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

/** A coupon whose terms are easy to spot in a page: $12.34 off. */
const fixedCoupon = () => createCoupon(writer, { type: "FIXED_AMOUNT", value: 1234 });
const showsTerms = (body: string) => body.includes("FIXED_AMOUNT") || body.includes("12.34");
const usesOf = (id: number) =>
  writer.select().from(coupons).where(eq(coupons.id, id)).get()?.currentUses;

function expectLimited(response: Response) {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
}

describe("the booking form's coupon lookups", () => {
  it("give a visitor's Apply and re-check the terms within the limit, and the 11th from one address a 429 with Retry-After", async () => {
    const coupon = fixedCoupon();
    const client = newClient();
    const applied = await postForm({ intent: "apply-coupon", couponEntry: coupon.code }, client);
    expect(applied.response.status).toBe(200);
    expect(showsTerms(applied.body)).toBe(true);
    for (let attempt = 2; attempt <= LIMIT; attempt += 1) {
      const { response, body } = await postForm(
        { intent: "check", couponCode: coupon.code },
        client,
      );
      expect(response.status).toBe(200);
      expect(showsTerms(body)).toBe(true);
    }
    const { response, body } = await postForm({ intent: "check", couponCode: coupon.code }, client);
    expectLimited(response);
    expect(body).toMatch(/Too many coupon codes tried\. Please try again in \d+ minutes?\./);
    expect(showsTerms(body)).toBe(false);
    const refusedApply = await postForm(
      { intent: "apply-coupon", couponEntry: coupon.code },
      client,
    );
    expectLimited(refusedApply.response);
    expect(showsTerms(refusedApply.body)).toBe(false);
    expect(usesOf(coupon.id)).toBe(0);
  });

  it("give a signed-in Apply the terms within the limit, and a 429 without them past it", async () => {
    const coupon = fixedCoupon();
    const client = newClient();
    const cookie = await signUp(client);
    const apply = () =>
      postForm({ intent: "apply-coupon", couponEntry: coupon.code }, client, cookie);
    const first = await apply();
    expect(first.response.status).toBe(200);
    expect(showsTerms(first.body)).toBe(true);
    for (let attempt = 2; attempt <= LIMIT; attempt += 1) {
      expect((await apply()).response.status).toBe(200);
    }
    const limited = await apply();
    expectLimited(limited.response);
    expect(limited.body).toMatch(/Too many coupon codes tried/);
    expect(showsTerms(limited.body)).toBe(false);
    // The re-check of an applied code is a lookup too.
    const recheck = await postForm({ intent: "check", couponCode: coupon.code }, client, cookie);
    expectLimited(recheck.response);
    expect(showsTerms(recheck.body)).toBe(false);
    expect(usesOf(coupon.id)).toBe(0);
  });

  it("answer the hydrated page's data request with the same 429 and Retry-After", async () => {
    const coupon = fixedCoupon();
    const client = newClient();
    const cookie = await signUp(client);
    const post = () =>
      fetch(`${server.url}/_root.data?index`, {
        method: "POST",
        redirect: "manual",
        headers: viaProxy(client, { Cookie: cookie }),
        body: new URLSearchParams({
          intent: "apply-coupon",
          couponEntry: coupon.code,
          _hydrated: "1",
        }),
      });
    for (let attempt = 1; attempt <= LIMIT; attempt += 1) await post();
    const response = await post();
    expectLimited(response);
    const body = await response.text();
    expect(body).toMatch(/Too many coupon codes tried/);
    expect(showsTerms(body)).toBe(false);
  });

  it("limit one account across addresses", async () => {
    const coupon = fixedCoupon();
    const cookie = await signUp(newClient());
    for (let attempt = 1; attempt <= LIMIT; attempt += 1) {
      const { response } = await postForm(
        { intent: "apply-coupon", couponEntry: coupon.code },
        newClient(),
        cookie,
      );
      expect(response.status).toBe(200);
    }
    const { response, body } = await postForm(
      { intent: "apply-coupon", couponEntry: coupon.code },
      newClient(),
      cookie,
    );
    expectLimited(response);
    expect(showsTerms(body)).toBe(false);
  });

  it("return no terms to other intents", async () => {
    const coupon = fixedCoupon();
    const client = newClient();
    const cookie = await signUp(client);
    for (const intent of ["remove-coupon", "nonsense"]) {
      const { body } = await postForm({ intent, couponCode: coupon.code }, client, cookie);
      expect(showsTerms(body)).toBe(false);
    }
  });

  it("answer one message for unknown, inactive, expired and used-up codes", async () => {
    const client = newClient();
    const cookie = await signUp(client);
    for (const code of unusableCodes()) {
      const { response, body } = await postForm(
        { intent: "apply-coupon", couponEntry: code },
        client,
        cookie,
      );
      expect(response.status).toBe(400);
      expect(body).toContain(UNUSABLE);
      expect(body).not.toMatch(/no longer active|has reached its usage limit|coupon has expired/);
    }
  });
});

function unusableCodes() {
  return [
    "NO-SUCH-CODE",
    createCoupon(writer, { isActive: false }).code,
    createCoupon(writer, { expiryDate: "2001-01-01" }).code,
    createCoupon(writer, { maxUses: 1, currentUses: 1 }).code,
  ];
}

describe("GET /api/coupons/validate/{code}", () => {
  it("answers one message for unknown, inactive, expired and used-up codes", async () => {
    const client = newClient();
    const cookie = await signUp(client);
    for (const code of unusableCodes()) {
      const { response, body } = await validate(code, client, cookie);
      expect(response.status).toBe(200);
      expect(body).toEqual({ isValid: false, message: UNUSABLE, coupon: null });
    }
  });

  it("answers a visitor, limited per address", async () => {
    const coupon = fixedCoupon();
    const client = newClient();
    const first = await validate(coupon.code, client);
    expect(first.response.status).toBe(200);
    expect(first.body).toEqual({
      isValid: true,
      message: expect.any(String),
      coupon: { code: coupon.code, type: "FIXED_AMOUNT", value: 1234 },
    });
    for (let attempt = 2; attempt <= LIMIT; attempt += 1) {
      expect((await validate(coupon.code, client)).response.status).toBe(200);
    }
    const { response, body } = await validate(coupon.code, client);
    expectLimited(response);
    expect(body).toEqual({ message: expect.stringMatching(TOO_MANY) });
  });

  it("limits lookups per account, from any address", async () => {
    const coupon = fixedCoupon();
    const cookie = await signUp(newClient());
    for (let attempt = 1; attempt <= LIMIT; attempt += 1) {
      expect((await validate(coupon.code, newClient(), cookie)).response.status).toBe(200);
    }
    const { response, body } = await validate(coupon.code, newClient(), cookie);
    expectLimited(response);
    expect(body).toEqual({ message: expect.stringMatching(TOO_MANY) });
  });

  it("limits lookups per address, whichever account asks", async () => {
    const coupon = fixedCoupon();
    const client = newClient();
    for (let attempt = 1; attempt <= LIMIT; attempt += 1) {
      const cookie = await signUp(newClient());
      expect((await validate(coupon.code, client, cookie)).response.status).toBe(200);
    }
    const { response, body } = await validate(coupon.code, client, await signUp(newClient()));
    expectLimited(response);
    expect(body).toEqual({ message: expect.stringMatching(TOO_MANY) });
    expect(usesOf(coupon.id)).toBe(0);
  });
});
