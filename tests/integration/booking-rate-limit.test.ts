import { describe, expect, it } from "vitest";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { createBooking } from "#tests/factories/booking";
import { actorsFor } from "#tests/setup/actors";
import { bookingFormFields, bookingPayload } from "#tests/setup/payloads";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";
import { viaFlyProxy } from "#tests/setup/proxy";

/**
 * Booking creation and rescheduling (docs/product.md "Booking"): BOOKING_RATE_LIMIT (3 here)
 * sessions per hour, counted per account and per client address (an IPv6 address by its /64),
 * shared by the booking form, the reschedule page and POST /api/bookings and
 * /api/bookings/{id}/reschedule; a series takes one per session it books. Past it: 429,
 * Retry-After, our message, with JavaScript and without, and nothing written.
 * Behind the proxy (TRUST_PROXY) so each test is a client address of its own.
 */
const server = serverForThisFile({ TRUST_PROXY: "true", BOOKING_RATE_LIMIT: "3" });
const people = actorsFor(server);
const LIMIT = 3;
const TOO_MANY =
  /Too many bookings and changes in a short time\. Please try again in \d+ minutes?\./;

const { newClient, viaProxy } = viaFlyProxy(server, "198.51.100");

async function signUp() {
  const response = await fetch(`${server.url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...viaProxy(newClient()) },
    body: JSON.stringify(registrationPayload()),
  });
  expect(response.status).toBe(201);
  const user = (await response.json()) as { id: number };
  return { id: user.id, cookie: cookiesFrom(response) };
}

let daysAhead = 5;
const freshDate = () => {
  daysAhead += 1;
  return addStudioDays(studioDateOf(Date.now()), daysAhead);
};

function bookApi(cookie: string, client: string) {
  return fetch(`${server.url}/api/bookings`, {
    method: "POST",
    headers: viaProxy(client, { "Content-Type": "application/json", Cookie: cookie }),
    body: JSON.stringify(bookingPayload(freshDate(), "10:00")),
  });
}

// A series' weeks, clear of every other series of the file (at most 3 weekly sessions each).
let seriesWeeks = 200;
const seriesStart = () => {
  seriesWeeks += 4;
  return addStudioDays(studioDateOf(Date.now()), seriesWeeks * 7);
};

function seriesApi(cookie: string, client: string, start: string, repeat: Record<string, unknown>) {
  return fetch(`${server.url}/api/bookings`, {
    method: "POST",
    headers: viaProxy(client, { "Content-Type": "application/json", Cookie: cookie }),
    body: JSON.stringify(bookingPayload(start, "19:00", 2, { repeat })),
  });
}

function rescheduleApi(cookie: string, client: string, bookingId: number) {
  return fetch(`${server.url}/api/bookings/${bookingId}/reschedule`, {
    method: "POST",
    headers: viaProxy(client, { "Content-Type": "application/json", Cookie: cookie }),
    body: JSON.stringify({ recordingDate: freshDate(), recordingTime: "14:00" }),
  });
}

/** A form post: without JavaScript a document request, with it React Router's `.data` fetch. */
function postForm(
  path: string,
  fields: Record<string, string>,
  cookie: string,
  client: string,
  js: boolean,
) {
  const [pathname, query] = path.split("?");
  const url =
    js && pathname
      ? `${pathname === "/" ? "/_root" : pathname}.data${query ? `?${query}` : ""}`
      : path;
  return fetch(`${server.url}${url}`, {
    method: "POST",
    redirect: "manual",
    headers: viaProxy(client, { Cookie: cookie }),
    body: new URLSearchParams(js ? { ...fields, _hydrated: "1" } : fields),
  });
}

const bookForm = (cookie: string, client: string, js: boolean) =>
  postForm(
    "/?index",
    { intent: "book", ...bookingFormFields(freshDate(), "10:00") },
    cookie,
    client,
    js,
  );

async function expectRefused(response: Response) {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
  const body = await response.text();
  expect(body).toMatch(TOO_MANY);
  return body;
}

/** A confirmed session a month ahead, which its owner may move. */
const confirmedSession = (userId: number) =>
  createBooking(people.db(), { user: { id: userId }, date: freshDate(), status: "CONFIRMED" });

describe("the JSON API", () => {
  it("counts bookings and reschedules per account, from any address, and writes nothing past the limit", async () => {
    const customer = await signUp();
    const session = confirmedSession(customer.id);
    for (let n = 0; n < LIMIT - 1; n += 1) {
      expect((await bookApi(customer.cookie, newClient())).status).toBe(201);
    }
    expect((await rescheduleApi(customer.cookie, newClient(), session.id)).status).toBe(200);

    const before = people.snapshot();
    const booking = await bookApi(customer.cookie, newClient());
    const body = JSON.parse(await expectRefused(booking)) as { message: string };
    expect(body.message).toMatch(new RegExp(`^${TOO_MANY.source}$`));
    await expectRefused(await rescheduleApi(customer.cookie, newClient(), session.id));
    expect(people.snapshot()).toEqual(before);
  });

  it("counts per client address across accounts, an IPv6 /64 as one address", async () => {
    const accounts = await Promise.all([signUp(), signUp(), signUp(), signUp(), signUp()]);
    const [a, b, c, d, e] = accounts;
    if (!a || !b || !c || !d || !e) throw new Error("five accounts");
    // One customer line: every address of 2001:db8:7:1::/64.
    expect((await bookApi(a.cookie, "2001:db8:7:1::1")).status).toBe(201);
    expect((await bookApi(b.cookie, "2001:db8:7:1::2")).status).toBe(201);
    expect((await bookApi(c.cookie, "2001:db8:7:1:ffff:ffff:ffff:fffe")).status).toBe(201);
    const before = people.snapshot();
    await expectRefused(await bookApi(d.cookie, "2001:db8:7:1:abcd::9"));
    expect(people.snapshot()).toEqual(before);
    // The next /64 is another client.
    expect((await bookApi(e.cookie, "2001:db8:7:2::1")).status).toBe(201);
  });
});

describe.each([
  ["without JavaScript", false],
  ["with JavaScript", true],
])("the booking form and the reschedule page %s", (_label, js) => {
  it("book within the limit, then answer 429 with the message and write nothing", async () => {
    const customer = await signUp();
    const session = confirmedSession(customer.id);
    for (let n = 0; n < LIMIT; n += 1) {
      const response = await bookForm(customer.cookie, newClient(), js);
      expect([200, 202, 204, 302]).toContain(response.status);
    }
    expect(
      people
        .db()
        .$client.prepare("SELECT count(*) AS n FROM bookings WHERE user_id = ?")
        .get(customer.id),
    ).toEqual({ n: LIMIT + 1 });

    const before = people.snapshot();
    await expectRefused(await bookForm(customer.cookie, newClient(), js));
    const move = await postForm(
      `/dashboard/sessions/${session.id}/reschedule`,
      { recordingDate: freshDate(), recordingTime: "14:00" },
      customer.cookie,
      newClient(),
      js,
    );
    await expectRefused(move);
    expect(people.snapshot()).toEqual(before);
  });
});

describe("a series takes one per session", () => {
  it("counts its sessions; a series that does not fit is refused whole and takes nothing", async () => {
    const customer = await signUp();
    // Three weeks less one left out: two sessions, two of the three.
    const start = seriesStart();
    const first = await seriesApi(customer.cookie, newClient(), start, {
      every: "week",
      count: 3,
      skip: [addStudioDays(start, 14)],
    });
    expect(first.status).toBe(201);
    expect(((await first.json()) as { bookings: unknown[] }).bookings).toHaveLength(2);

    // Two more do not fit in the one left: 429, nothing written.
    const before = people.snapshot();
    await expectRefused(
      await seriesApi(customer.cookie, newClient(), seriesStart(), { every: "week", count: 2 }),
    );
    expect(people.snapshot()).toEqual(before);
    // The refused series took nothing: the single session left still fits, then nothing does.
    expect((await bookApi(customer.cookie, newClient())).status).toBe(201);
    const after = people.snapshot();
    await expectRefused(await bookApi(customer.cookie, newClient()));
    expect(people.snapshot()).toEqual(after);
  });

  it("counts a series booked from the form (no JavaScript) the same way", async () => {
    const customer = await signUp();
    const series = await postForm(
      "/?index",
      {
        intent: "book",
        ...bookingFormFields(seriesStart(), "19:00"),
        "repeat.every": "week",
        "repeat.count": String(LIMIT),
      },
      customer.cookie,
      newClient(),
      false,
    );
    expect(series.status).toBe(302);
    expect(series.headers.get("Location")).toMatch(/^\/checkout\/series\/\d+/);
    const before = people.snapshot();
    await expectRefused(await bookForm(customer.cookie, newClient(), false));
    expect(people.snapshot()).toEqual(before);
  });
});
