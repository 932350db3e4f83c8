import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { signIns } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { createCoupon, createService } from "#tests/factories/catalog";
import { createPayment } from "#tests/factories/payment";
import { createSeries } from "#tests/factories/series";
import { storedSignInId } from "#tests/factories/sign-in";
import { createUser } from "#tests/factories/user";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { bookingPayload, PASSWORD } from "#tests/setup/payloads";
import { cookiesFrom, errorLines, uniqueUsername } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";
import { targetsFromRouteTable } from "#tests/setup/route-targets";
import {
  ACCESS_RULES,
  ACTORS,
  type AccessRule,
  type ActorName as RuleActor,
  type FreshRows,
  heldBackAdminOutcome,
  METHODS,
  type Outcome,
  type PerActor,
  type RequestContext,
} from "#tests/routes/access-rules";

/**
 * The authorization matrix, generated from the route table (app/routes.ts): every route must
 * have a rule in access-rules.ts, and every page, `.data` URL, action and /api/* method is
 * sent as a visitor, a customer, another customer, an admin and an admin the staff gate holds
 * back. Staff must prove a second factor here (REQUIRE_STAFF_2FA), as in production: the admin
 * signed in with one, the held-back admin with only the password.
 */
// Before the imports: the factories load the app's settings.
vi.hoisted(() => Object.assign(process.env, { REQUIRE_STAFF_2FA: "true" }));
const server = appForThisFile();
const { db, signUp, signUpAdmin, snapshot } = actorsFor(server);

const RULES_FILE = "tests/routes/access-rules.ts";

/** Every route of the table, keyed by its full URL pattern ("/" for the index). */
const table = targetsFromRouteTable().map((target) => ({
  key: target.pattern,
  file: target.file,
  index: target.isIndex,
}));

describe("the route table", () => {
  it("names each route once", () => {
    const keys = table.map((route) => route.key);
    expect(keys).toEqual([...new Set(keys)]);
  });

  it("has no rule for a route that is gone", () => {
    const stale = Object.keys(ACCESS_RULES).filter((key) => !table.some((r) => r.key === key));
    expect(stale, `rules in ${RULES_FILE} without a route`).toEqual([]);
  });
});

// --- the actors and what their requests need --------------------------------------------

/** Unique to the customer: must never reach a visitor or another customer. */
const OWNER_MARKER = `Owner${randomUUID().slice(0, 8)}`;

const TEST_ACTORS = [...ACTORS, "heldBackAdmin"] as const;
type ActorName = (typeof TEST_ACTORS)[number];
const expectedOf = (rule: PerActor, actor: ActorName): Outcome =>
  actor === "heldBackAdmin" ? heldBackAdminOutcome(rule) : rule[actor as RuleActor];

const actors = {} as Record<Exclude<ActorName, "visitor">, Actor>;
let spare: Actor;
let heldBackStudioFeed = "";

/** Whether the actor's sign-in counts as having proven a second factor at sign-in. */
function setSecondFactor(actor: Actor, proven: boolean) {
  const cookieValue = /(?:^|; )__session=([^;]+)/.exec(actor.cookie)?.[1];
  if (!cookieValue) throw new Error(`No sign-in cookie in ${actor.cookie}`);
  const id = storedSignInId(cookieValue);
  db().update(signIns).set({ secondFactor: proven }).where(eq(signIns.id, id)).run();
}

/** The Sessions tab makes and shows the caller's studio calendar link on its first view. */
async function studioFeedOf(actor: Actor): Promise<string> {
  const response = await fetch(`${server.url}/admin/sessions`, {
    headers: { Cookie: actor.cookie },
  });
  expect(response.status).toBe(200);
  const token = /\/calendar\/([A-Za-z0-9_-]{43})\.ics/.exec(await response.text())?.[1];
  if (!token) throw new Error("No studio calendar link on the Sessions tab");
  return token;
}

beforeAll(async () => {
  actors.customer = await signUp({ lastName: OWNER_MARKER, businessName: OWNER_MARKER });
  actors.otherCustomer = await signUp();
  actors.admin = await signUpAdmin();
  setSecondFactor(actors.admin, true);
  actors.heldBackAdmin = await signUpAdmin();
  spare = await signUp();
  // The Sessions tab makes the admin's studio calendar link on its first view (docs/product.md
  // "Calendar feeds"); the views after it, which the rules below check, only read.
  await studioFeedOf(actors.admin);
  // A link made while the gate let its owner pass (before REQUIRE_STAFF_2FA, say); the account
  // has no second factor of its own, so the link must be dead now.
  setSecondFactor(actors.heldBackAdmin, true);
  heldBackStudioFeed = await studioFeedOf(actors.heldBackAdmin);
  setSecondFactor(actors.heldBackAdmin, false);
});

describe("the leak check", () => {
  it("can see the customer's data where the customer may read it", async () => {
    await ownedBooking();
    for (const path of ["/api/user", "/api/bookings", "/dashboard"]) {
      const response = await fetch(`${server.url}${path}`, {
        headers: { Cookie: actors.customer.cookie },
      });
      expect(await response.text(), path).toContain(OWNER_MARKER);
    }
  });
});

let slotIndex = 0;
const SLOT_TIMES = ["06:00", "08:00", "10:00", "12:00", "14:00", "16:00", "18:00", "20:00"];
/** Two-hour slots after the 48-hour notice, never the same one twice. */
function freshSlot() {
  const day = Math.floor(slotIndex / SLOT_TIMES.length) + 1;
  const time = SLOT_TIMES[slotIndex % SLOT_TIMES.length] as string;
  slotIndex += 1;
  return { date: addStudioDays(earliestBookableDate(Date.now()), day), time };
}

/** A new unpaid booking of the customer, so each request finds it unpaid. */
async function ownedBooking(): Promise<number> {
  const { date, time } = freshSlot();
  const response = await fetch(`${server.url}/api/bookings`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: actors.customer.cookie },
    body: JSON.stringify(
      bookingPayload(date, time, 2, { lastName: OWNER_MARKER, businessName: OWNER_MARKER }),
    ),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** A booking of the customer's paid by card, with its receipt (the receipt URLs). */
async function paidBooking(): Promise<{ bookingId: number; paymentId: number }> {
  const bookingId = await ownedBooking();
  const payment = createPayment(db(), {
    booking: { id: bookingId, userId: actors.customer.id },
    paymentDetails: { brand: "visa", last4: "4242" },
  });
  return { bookingId, paymentId: payment.id };
}
const NO_PAYMENT = { bookingId: 0, paymentId: 0 };

/** A new unpaid weekly series of the customer's, far past the slots the API books. */
let seriesWeeks = 0;
function ownedSeries(): number {
  seriesWeeks += 1;
  const firstDate = addStudioDays(earliestBookableDate(Date.now()), 200 + seriesWeeks);
  return createSeries(db(), { user: { id: actors.customer.id }, firstDate, count: 2 }).series.id;
}

/** The rows of one admin request, written straight into the file (see RequestContext.rows). */
async function freshRows(): Promise<FreshRows> {
  const coupon = (isActive: boolean) =>
    createCoupon(db(), { description: "10% off coupon", type: "PERCENTAGE", value: 10, isActive });
  return {
    userId: (await createUser(db(), { username: uniqueUsername("rows") })).id,
    activeCouponId: coupon(true).id,
    inactiveCouponId: coupon(false).id,
    serviceId: createService(db(), { description: "Matrix add-on", price: 50 }).id,
  };
}
const NO_ROWS: FreshRows = { userId: 0, activeCouponId: 0, inactiveCouponId: 0, serviceId: 0 };

async function contextFor(actor: ActorName, rule: AccessRule): Promise<RequestContext> {
  const user = actor === "visitor" ? spare : actors[actor];
  return {
    rows: rule.freshRows ? await freshRows() : NO_ROWS,
    bookingId: rule.ownedBooking ? await ownedBooking() : 0,
    payment: "paidBooking" in rule && rule.paidBooking ? await paidBooking() : NO_PAYMENT,
    seriesId: "ownedSeries" in rule && rule.ownedSeries ? ownedSeries() : 0,
    freshSlot,
    freshUsername: () => uniqueUsername("matrix"),
    customerId: actors.customer.id,
    heldBackStudioFeed,
    credentials: { username: user.username, password: PASSWORD },
  };
}

/**
 * Logging in, out or registering ends the actor's sign-in: sign in again for the next test. The
 * admin's sign-in proves a second factor (a password login through the API does not: it is
 * recorded as one here, as a code would have).
 */
async function keepSignedIn(actor: ActorName) {
  if (actor === "visitor") return;
  const user = actors[actor];
  const me = await fetch(`${server.url}/api/user`, { headers: { Cookie: user.cookie } });
  if (me.status === 200) {
    if (actor === "admin") setSecondFactor(user, true);
    return;
  }
  const login = await fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: user.username, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  user.cookie = cookiesFrom(login);
  if (actor === "admin") setSecondFactor(user, true);
}

// --- requests ----------------------------------------------------------------------------

/** React Router's single-fetch URL of a page: /path.data, /_root.data for "/". */
function dataUrl(url: string): string {
  const [path = "/", query] = url.split("?");
  const base = path === "/" ? "/_root.data" : `${path.replace(/\/$/, "")}.data`;
  return query === undefined ? base : `${base}?${query}`;
}

type Answer = { status: number; location: string | null; body: string };

/** A `.data` redirect is a 202 whose payload names the target; read it like a real one. */
function normalize(response: Response, body: string): Answer {
  const location = response.headers.get("Location");
  if (response.status === 202 && response.headers.get("Content-Type")?.includes("text/x-script")) {
    const match = /"redirect","([^"]*)","status",(\d+)/.exec(body);
    if (match) return { status: Number(match[2]), location: match[1] ?? null, body };
  }
  return { status: response.status, location, body };
}

async function send(
  method: string,
  url: string,
  actor: ActorName,
  body?: { form: Record<string, string> } | { json: Record<string, unknown> },
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (actor !== "visitor") headers.Cookie = actors[actor].cookie;
  let payload: BodyInit | undefined;
  if (method !== "GET") {
    headers.Origin = server.url;
    if (body && "form" in body) payload = new URLSearchParams(body.form);
    if (body && "json" in body) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body.json);
    }
  }
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers,
    body: payload,
    redirect: "manual",
  });
  return normalize(response, await response.text());
}

function describeOutcome(outcome: Outcome): string {
  const parts = [String(outcome.status)];
  if (outcome.location) parts.push(`-> ${outcome.location}`);
  if (outcome.writes) parts.push("(writes)");
  return parts.join(" ");
}

/** Sends one request and holds it to its outcome: status, redirect, writes, no leak. */
async function check(
  actor: ActorName,
  expected: Outcome,
  label: string,
  request: () => Promise<Answer>,
): Promise<void> {
  const before = snapshot();
  const answer = await request();
  const after = snapshot();
  const excerpt = answer.body.startsWith("<!DOCTYPE") ? "(HTML)" : answer.body.slice(0, 200);
  const sent = `${label} as ${actor}`;
  expect(answer.status, `${sent}: ${excerpt}`).toBe(expected.status);
  if (expected.location instanceof RegExp) {
    expect(answer.location, sent).toMatch(expected.location);
  } else if (expected.location !== undefined) {
    expect(answer.location, sent).toBe(expected.location);
  }
  if (expected.writes) expect(after, `${sent}: the allowed write did nothing`).not.toEqual(before);
  else expect(after, `${sent}: wrote to the database`).toEqual(before);
  if (expected.message) expect(answer.body, sent).toContain(expected.message);
  if (actor !== "customer" && actor !== "admin") {
    expect(answer.body, `${sent}: the customer's data leaked`).not.toContain(OWNER_MARKER);
  }
  await keepSignedIn(actor);
}

// --- the matrix --------------------------------------------------------------------------

for (const route of table) {
  const rule = ACCESS_RULES[route.key];
  describe(`${route.key} (${route.file})`, () => {
    if (!rule) {
      it("has an access rule", () => {
        expect.fail(
          `${route.key} (app/${route.file}) has no access rule: declare who may load it and ` +
            `post to it in ${RULES_FILE}`,
        );
      });
      return;
    }
    if (/[:*]/.test(route.key) && !rule.url) {
      it("has a concrete URL for its parameters", () => {
        expect.fail(`give ${route.key} a url() in ${RULES_FILE}`);
      });
      return;
    }
    const urlFor = (context: RequestContext) => rule.url?.(context) ?? route.key;

    if (rule.kind === "page") {
      for (const actor of TEST_ACTORS) {
        const load = expectedOf(rule.load, actor);
        const action = expectedOf(rule.action, actor);
        it(`GET as ${actor}: ${describeOutcome(load)}`, async () => {
          const context = await contextFor(actor, rule);
          const url = urlFor(context);
          await check(actor, load, `GET ${url}`, () => send("GET", url, actor));
          const data = dataUrl(url);
          await check(actor, load, `GET ${data}`, () => send("GET", data, actor));
        });
        it(`POST (form) as ${actor}: ${describeOutcome(action)}`, async () => {
          for (const toData of [false, true]) {
            const context = await contextFor(actor, rule);
            const page = `${urlFor(context)}${route.index ? "?index" : ""}`;
            const url = toData ? dataUrl(page) : page;
            const form = rule.form?.(context) ?? {};
            await check(actor, action, `POST ${url}`, () => send("POST", url, actor, { form }));
          }
        });
      }
      return;
    }

    const cases = [
      ...METHODS.map((method) => ({
        name: method,
        method,
        url: urlFor,
        expect: rule.methods[method],
      })),
      ...(rule.extra ?? []).map((extra) => ({ ...extra, name: `${extra.method} ${extra.name}` })),
    ];
    for (const { name, method, url, expect: perActor } of cases) {
      for (const actor of TEST_ACTORS) {
        const outcome = expectedOf(perActor, actor);
        it(`${name} as ${actor}: ${describeOutcome(outcome)}`, async () => {
          for (const toData of [false, true]) {
            const context = await contextFor(actor, rule);
            const target = toData ? dataUrl(url(context)) : url(context);
            const json = method === "GET" ? undefined : { json: rule.body?.(context) ?? {} };
            await check(actor, outcome, `${method} ${target}`, () =>
              send(method, target, actor, json),
            );
          }
        });
      }
    }
  });
}

describe("after the whole matrix", () => {
  it("the server logged no error", () => {
    expect(server.output()).not.toMatch(/\n\s+at /);
    expect(errorLines(server.output())).toEqual([]);
  });
});
