import { beforeAll, describe, expect, it } from "vitest";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * How many times one request reads the sign_ins table: once, however many loaders, actions and
 * guards it runs (the guard middleware of the admin, dashboard and admin API layouts puts the
 * user in the request context; the root loader and every handler read it from there).
 *
 * The test server preloads tests/setup/count-sign-in-reads.js, which counts the reads where they
 * run and sends the running total with every answer (X-Sign-In-Reads).
 */
const server = serverForThisFile({ NODE_OPTIONS: "--import ./tests/setup/count-sign-in-reads.js" });
const { signUp, signUpAdmin } = actorsFor(server);

let admin: Actor;
let customer: Actor;
beforeAll(async () => {
  admin = await signUpAdmin();
  customer = await signUp();
});

/** The running total the server reported with its last answer. */
let lastTotal = 0;

/** Sends one request and says how often it read the sign_ins table. */
async function reads(path: string, cookie: string, form?: Record<string, string>) {
  // An answer without a cookie reads no sign-in: it brings the total up to date first.
  const sync = await fetch(`${server.url}/healthz`);
  lastTotal = Number(sync.headers.get("X-Sign-In-Reads"));
  const response = await fetch(`${server.url}${path}`, {
    method: form ? "POST" : "GET",
    headers: { Cookie: cookie, ...(form ? { Origin: server.url } : {}) },
    body: form ? new URLSearchParams(form) : undefined,
    redirect: "manual",
  });
  await response.text();
  const total = Number(response.headers.get("X-Sign-In-Reads"));
  return {
    status: response.status,
    location: response.headers.get("Location"),
    reads: total - lastTotal,
  };
}

describe("one sign-in lookup per request", () => {
  it("an admin tab: the layout's guard, the root loader and the tab's loader", async () => {
    expect(await reads("/admin/bookings", admin.cookie)).toMatchObject({ status: 200, reads: 1 });
  });

  it("an admin tab's .data request", async () => {
    expect(await reads("/admin/bookings.data", admin.cookie)).toMatchObject({
      status: 200,
      reads: 1,
    });
  });

  it("an admin form post, its action and the loaders that run after it", async () => {
    // Retrying an e-mail that does not exist is refused; the page is rendered again with it.
    const answer = await reads("/admin/emails", admin.cookie, { intent: "retry", id: "999999" });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.reads).toBe(1);
  });

  it("the customer's dashboard", async () => {
    expect(await reads("/dashboard", customer.cookie)).toMatchObject({ status: 200, reads: 1 });
  });

  it("the admin JSON API", async () => {
    expect(await reads("/api/admin/bookings", admin.cookie)).toMatchObject({
      status: 200,
      reads: 1,
    });
  });

  it("a page outside the guarded layouts (the home page)", async () => {
    expect(await reads("/", customer.cookie)).toMatchObject({ status: 200, reads: 1 });
  });

  it("a customer refused at an admin tab", async () => {
    expect(await reads("/admin/bookings", customer.cookie)).toMatchObject({
      status: 302,
      location: "/dashboard",
      reads: 1,
    });
  });
});
