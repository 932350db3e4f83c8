import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { technicalAssistanceRequests } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { SUPPORT_MESSAGES } from "#app/domain/support";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { bookingPayload } from "#tests/setup/payloads";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * Support requests (docs/product.md "Support and chat"): POST and GET /api/tech-assistance
 * and the dashboard's 'Get help' form, against the app in process. A customer only ever
 * sees and references their own requests and bookings, and a refused request writes nothing.
 * Also /intercom-test and the Content-Security-Policy with no chat app id configured.
 */
const server = appForThisFile();
const { signUp, snapshot } = actorsFor(server);

type Json = Record<string, unknown>;

function api(path: string, options: { method?: string; body?: unknown; cookie?: string } = {}) {
  const headers: Record<string, string> = { Origin: server.url };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.cookie) headers.Cookie = options.cookie;
  return fetch(`${server.url}${path}`, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

function postForm(path: string, cookie: string, fields: Record<string, string>) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, Cookie: cookie },
    body: new URLSearchParams(fields),
  });
}

const request = (overrides: Json = {}): Json => ({
  issueType: "EQUIPMENT",
  description: "The second microphone crackles whenever the guest moves.",
  preferredContactMethod: "EMAIL",
  name: "Ada Lovelace",
  email: "ada@example.com",
  phoneNumber: "404-555-0100",
  ...overrides,
});

let slot = 0;
async function bookingOf(actor: Actor): Promise<number> {
  slot += 1;
  const date = addStudioDays(earliestBookableDate(Date.now()), 10 + slot);
  const response = await api("/api/bookings", {
    cookie: actor.cookie,
    body: bookingPayload(date, "10:00", 2),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** Sends a request that must be refused: its status and body, and proof that nothing changed. */
async function refused(send: () => Promise<Response>) {
  const before = snapshot();
  const response = await send();
  const body = (await response.json()) as Json;
  expect(snapshot()).toEqual(before);
  return { status: response.status, body };
}

let customer: Actor;
let other: Actor;
let customerBooking: number;
let otherBooking: number;

beforeAll(async () => {
  customer = await signUp();
  other = await signUp();
  customerBooking = await bookingOf(customer);
  otherBooking = await bookingOf(other);
});

describe("POST /api/tech-assistance", () => {
  it("files a PENDING request for the caller, whatever the body claims", async () => {
    const response = await api("/api/tech-assistance", {
      cookie: customer.cookie,
      body: request({
        bookingId: customerBooking,
        userId: other.id,
        status: "RESOLVED",
        resolution: "Fixed already",
      }),
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as Json;
    expect(created).toMatchObject({
      userId: customer.id,
      bookingId: customerBooking,
      issueType: "EQUIPMENT",
      preferredContactMethod: "EMAIL",
      status: "PENDING",
      resolution: null,
      resolvedAt: null,
    });
    expect(new Date(String(created.createdAt)).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const row = server.db
      .select({
        userId: technicalAssistanceRequests.userId,
        status: technicalAssistanceRequests.status,
      })
      .from(technicalAssistanceRequests)
      .where(eq(technicalAssistanceRequests.id, Number(created.id)))
      .get();
    expect(row).toEqual({ userId: customer.id, status: "PENDING" });
  });

  it("refuses another customer's booking exactly like one that does not exist (400)", async () => {
    const others = await refused(() =>
      api("/api/tech-assistance", {
        cookie: customer.cookie,
        body: request({ bookingId: otherBooking }),
      }),
    );
    const missing = await refused(() =>
      api("/api/tech-assistance", {
        cookie: customer.cookie,
        body: request({ bookingId: 987_654 }),
      }),
    );
    expect(others).toEqual({
      status: 400,
      body: {
        message: SUPPORT_MESSAGES.booking,
        errors: { bookingId: [SUPPORT_MESSAGES.booking] },
      },
    });
    expect(missing).toEqual(others);
  });

  it.each([
    [{ description: "Too short" }, SUPPORT_MESSAGES.descriptionShort],
    [{ issueType: "FIRE" }, SUPPORT_MESSAGES.issueType],
    [{ preferredContactMethod: "PHONE", phoneNumber: "" }, SUPPORT_MESSAGES.phoneForCall],
    [{ bookingId: "0x10" }, SUPPORT_MESSAGES.booking],
  ])("answers 400 to %o and writes nothing", async (overrides, message) => {
    const { status, body } = await refused(() =>
      api("/api/tech-assistance", { cookie: customer.cookie, body: request(overrides) }),
    );
    expect(status).toBe(400);
    expect(body.message).toBe(message);
  });

  it("refuses a body that is not JSON", async () => {
    const { status, body } = await refused(() =>
      fetch(`${server.url}/api/tech-assistance`, {
        method: "POST",
        headers: { Origin: server.url, Cookie: customer.cookie, "Content-Type": "text/plain" },
        body: JSON.stringify(request()),
      }),
    );
    expect(status).toBe(415);
    expect(body.message).toMatch(/JSON/);
  });

  it("answers a visitor 401 and other methods 405", async () => {
    const visitor = await refused(() => api("/api/tech-assistance", { body: request() }));
    expect(visitor).toEqual({ status: 401, body: { message: "Not authenticated" } });
    expect((await refused(() => api("/api/tech-assistance"))).status).toBe(401);
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const answer = await refused(() =>
        api("/api/tech-assistance", { method, cookie: customer.cookie, body: request() }),
      );
      expect(answer, method).toEqual({ status: 405, body: { message: "Method not allowed" } });
    }
  });
});

describe("GET /api/tech-assistance", () => {
  it("lists only the caller's own requests, newest first", async () => {
    const first = await api("/api/tech-assistance", {
      cookie: other.cookie,
      body: request({ description: "First request: the booth light flickers.", name: "Other" }),
    });
    const second = await api("/api/tech-assistance", {
      cookie: other.cookie,
      body: request({ description: "Second request: the door code is not working." }),
    });
    const ids = [((await first.json()) as Json).id, ((await second.json()) as Json).id];

    const mine = (await (
      await api("/api/tech-assistance", { cookie: other.cookie })
    ).json()) as Json[];
    expect(mine.map((row) => row.id)).toEqual([ids[1], ids[0]]);
    expect(mine.every((row) => row.userId === other.id)).toBe(true);

    const theirs = (await (
      await api("/api/tech-assistance", { cookie: customer.cookie })
    ).json()) as Json[];
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((row) => row.userId === customer.id)).toBe(true);
    expect(theirs.map((row) => row.id)).not.toContain(ids[0]);
  });
});

describe("the dashboard's 'Get help' form", () => {
  const form = (overrides: Record<string, string> = {}) => ({
    intent: "support",
    issueType: "BOOKING",
    description: "Can my session start half an hour later than booked?",
    preferredContactMethod: "PHONE",
    name: "Ada Lovelace",
    email: "ada@example.com",
    phoneNumber: "404-555-0100",
    bookingId: "",
    ...overrides,
  });

  it("files the request and redirects to the list, where it shows as Pending", async () => {
    const description = `Dashboard request ${Date.now()}: the lights in booth one.`;
    const response = await postForm(
      "/dashboard?tab=support",
      customer.cookie,
      form({ description, bookingId: String(customerBooking) }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard?tab=support#support-requests");

    const page = await (
      await fetch(`${server.url}/dashboard?tab=support`, {
        headers: { Cookie: response.headers.getSetCookie().concat(customer.cookie).join("; ") },
      })
    ).text();
    expect(page).toContain(description);
    expect(page).toContain("Pending");
    expect(page).toContain(`Booking #${customerBooking}`);
    expect(page).toContain("Request sent");
    expect(page).toContain("We have received your request and will contact you by phone.");

    // Another customer sees neither the request nor the booking it is about.
    const otherPage = await (
      await fetch(`${server.url}/dashboard?tab=support`, { headers: { Cookie: other.cookie } })
    ).text();
    expect(otherPage).not.toContain(description);
    expect(otherPage).not.toContain(`Booking #${customerBooking}`);
    expect(otherPage).toContain(`Booking #${otherBooking}`);
  });

  it("offers only the customer's own bookings and refuses another's without writing", async () => {
    const before = snapshot();
    const response = await postForm(
      "/dashboard?tab=support",
      customer.cookie,
      form({ bookingId: String(otherBooking) }),
    );
    expect(response.status).toBe(400);
    expect(snapshot()).toEqual(before);
    const page = await response.text();
    expect(page).toContain(SUPPORT_MESSAGES.booking);
    expect(page).toContain("Request not sent");
    expect(page).not.toContain(`Booking #${otherBooking} ·`);
  });

  it("re-renders a too-short description with its error and writes nothing", async () => {
    const before = snapshot();
    const response = await postForm(
      "/dashboard?tab=support",
      customer.cookie,
      form({ description: "Help!" }),
    );
    expect(response.status).toBe(400);
    expect(snapshot()).toEqual(before);
    const page = await response.text();
    expect(page).toContain(SUPPORT_MESSAGES.descriptionShort);
    expect(page).toContain("Help!");
  });
});

describe("/intercom-test without a chat app id", () => {
  it("says the chat is not configured and shows the login state", async () => {
    const visitor = await fetch(`${server.url}/intercom-test`);
    expect(visitor.status).toBe(200);
    const html = await visitor.text();
    expect(html).toContain("not configured");
    expect(html).toContain("Signed out");
    expect(visitor.headers.get("Content-Security-Policy")).not.toMatch(/intercom/i);

    const signedIn = await (
      await fetch(`${server.url}/intercom-test`, { headers: { Cookie: customer.cookie } })
    ).text();
    expect(signedIn).toContain(`Signed in as ${customer.username}`);
  });
});
