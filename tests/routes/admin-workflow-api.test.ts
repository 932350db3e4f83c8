import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookingHistory, bookings, emailOutbox, payments } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { createBooking } from "#tests/factories/booking";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { bookingPayload, cardBody } from "#tests/setup/payloads";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * The admin workflow's JSON calls (docs/product.md "The JSON API": GET /api/admin/bookings, PUT
 * /api/admin/bookings/{id}) and the tabs' form errors, against the app in process: who may
 * call them, every error with its status and message, and that a refused call writes nothing.
 */
const server = appForThisFile();
const { db, signUp, signUpAdmin, snapshot } = actorsFor(server);

type Json = Record<string, unknown>;

function api(path: string, options: { method?: string; body?: unknown; cookie?: string } = {}) {
  const headers: Record<string, string> = { Origin: server.url };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.cookie) headers.Cookie = options.cookie;
  return fetch(`${server.url}${path}`, {
    method: options.method ?? "GET",
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

function postForm(path: string, cookie: string, fields: [string, string][]) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, Cookie: cookie },
    body: new URLSearchParams(fields),
  });
}

async function refused(send: () => Promise<Response>) {
  const before = snapshot();
  const response = await send();
  const body = (await response.text()) as string;
  expect(snapshot()).toEqual(before);
  return { status: response.status, body };
}

/** The e-mails of one kind queued for a booking. */
function outboxOf(bookingId: number, kind: string) {
  return server.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.bookingId, bookingId), eq(emailOutbox.kind, kind)))
    .all();
}

let slot = 0;
async function bookingOf(actor: Actor): Promise<number> {
  slot += 1;
  const date = addStudioDays(earliestBookableDate(Date.now()), 10 + slot);
  const response = await api("/api/bookings", {
    method: "POST",
    cookie: actor.cookie,
    body: bookingPayload(date, "10:00", 2),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** Bookings written straight into the file, on a day of their own. */
function insertBookings(user: Actor, date: string, count: number) {
  const contact = { firstName: "Bulk", lastName: "Client", email: "bulk@example.com" };
  db().transaction((tx) => {
    for (let index = 0; index < count; index += 1) {
      const time = `${String(index % 24).padStart(2, "0")}:${index < 24 ? "00" : "30"}`;
      createBooking(tx, { user: { id: user.id, ...contact }, date, time, hours: 1 });
    }
  });
}

let customer: Actor;
let admin: Actor;

beforeAll(async () => {
  customer = await signUp();
  admin = await signUpAdmin();
});

describe("GET /api/admin/bookings", () => {
  it("refuses visitors (401) and customers (403) with a message", async () => {
    const visitor = await refused(() => api("/api/admin/bookings"));
    expect(visitor.status).toBe(401);
    expect(JSON.parse(visitor.body)).toEqual({ message: "Not authenticated" });
    const asCustomer = await refused(() => api("/api/admin/bookings", { cookie: customer.cookie }));
    expect(asCustomer.status).toBe(403);
    expect(JSON.parse(asCustomer.body).message).toMatch(/admin/i);
  });

  it("answers a filtered day as booking JSON, 25 to a page, with a Link to the next", async () => {
    const date = addStudioDays(earliestBookableDate(Date.now()), 200);
    insertBookings(customer, date, 27);
    const first = await api(`/api/admin/bookings?date=${date}&page=1`, { cookie: admin.cookie });
    expect(first.status).toBe(200);
    const rows = (await first.json()) as Json[];
    expect(rows).toHaveLength(25);
    expect(rows.every((row) => row.recordingDate === date)).toBe(true);
    expect(rows[0]).toMatchObject({
      status: "CONFIRMED",
      recordingTime: "00:00",
      userId: customer.id,
    });
    expect(typeof rows[0]?.startsAt).toBe("string");
    expect(first.headers.get("Link")).toBe(`</api/admin/bookings?date=${date}&page=2>; rel="next"`);

    const second = await api(`/api/admin/bookings?date=${date}&page=2`, { cookie: admin.cookie });
    expect(((await second.json()) as Json[]).map((row) => row.recordingTime)).toEqual([
      // A day reads earliest first: the half hours fall between the whole ones.
      "22:00",
      "23:00",
    ]);
    expect(second.headers.get("Link")).toBeNull();

    // Without paging parameters: the whole day at once, in the same order, no Link.
    const whole = await api(`/api/admin/bookings?date=${date}`, { cookie: admin.cookie });
    expect(whole.headers.get("Link")).toBeNull();
    const wholeRows = (await whole.json()) as Json[];
    expect(wholeRows.map((row) => row.id)).toEqual([
      ...rows.map((row) => row.id),
      ...(
        (await (
          await api(`/api/admin/bookings?date=${date}&page=2`, { cookie: admin.cookie })
        ).json()) as Json[]
      ).map((row) => row.id),
    ]);

    const none = await api(`/api/admin/bookings?date=${date}&status=COMPLETED`, {
      cookie: admin.cookie,
    });
    expect(await none.json()).toEqual([]);
  });

  it("refuses other methods", async () => {
    const response = await api("/api/admin/bookings", {
      method: "POST",
      cookie: admin.cookie,
      body: {},
    });
    expect(response.status).toBe(405);
  });
});

describe("PUT /api/admin/bookings/{id}", () => {
  let bookingId: number;
  beforeAll(async () => {
    bookingId = await bookingOf(customer);
  });
  const put = (id: number | string, body: unknown, cookie = admin.cookie) =>
    api(`/api/admin/bookings/${id}`, { method: "PUT", cookie, body });

  it("refuses visitors and customers, even on their own booking", async () => {
    const visitor = await refused(() =>
      api(`/api/admin/bookings/${bookingId}`, { method: "PUT", body: { status: "PENDING" } }),
    );
    expect(visitor.status).toBe(401);
    const owner = await refused(() => put(bookingId, { status: "PENDING" }, customer.cookie));
    expect(owner.status).toBe(403);
  });

  it("answers 400 for a bad status or body, 404 for an unknown booking", async () => {
    for (const body of [{ status: "DONE" }, {}, { status: 3 }, { status: "PENDING", note: 5 }]) {
      const bad = await refused(() => put(bookingId, body));
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(JSON.parse(bad.body).message).toMatch(/\S/);
    }
    const notJson = await refused(() =>
      fetch(`${server.url}/api/admin/bookings/${bookingId}`, {
        method: "PUT",
        headers: { Origin: server.url, Cookie: admin.cookie, "Content-Type": "text/plain" },
        body: "status=PENDING",
      }),
    );
    expect(notJson.status).toBe(415);
    for (const id of ["999999", "abc", "0", "1e3"]) {
      const missing = await refused(() => put(id, { status: "PENDING" }));
      expect(missing.status, id).toBe(404);
      expect(JSON.parse(missing.body)).toEqual({ message: "Booking not found" });
    }
  });

  it("changes the status forward, confirms with the .ics e-mail, and answers 422 when the rule refuses", async () => {
    const review = await put(bookingId, { status: "pending", note: "Paid at the desk" });
    expect(review.status).toBe(200);
    expect(await review.json()).toMatchObject({
      id: bookingId,
      status: "PENDING",
      holdExpiresAt: null,
    });

    const again = await refused(() => put(bookingId, { status: "PENDING" }));
    expect(again.status).toBe(422);
    expect(JSON.parse(again.body).message).toBe("This booking is already Pending Review.");

    const confirmed = await put(bookingId, { status: "CONFIRMED" });
    expect(confirmed.status).toBe(200);
    const emails = outboxOf(bookingId, "booking-confirmed");
    expect(emails).toHaveLength(1);
    expect(emails[0]?.attachments?.map((file) => file.filename)).toContain(
      `studio-session-${bookingId}.ics`,
    );

    const backwards = await refused(() => put(bookingId, { status: "PENDING" }));
    expect(backwards.status).toBe(422);
    expect(JSON.parse(backwards.body).message).toBe(
      "A booking cannot go back from Confirmed to Pending Review.",
    );

    const history = server.db
      .select({
        actorUserId: bookingHistory.actorUserId,
        fromStatus: bookingHistory.fromStatus,
        toStatus: bookingHistory.toStatus,
        note: bookingHistory.note,
      })
      .from(bookingHistory)
      .where(eq(bookingHistory.bookingId, bookingId))
      .orderBy(bookingHistory.id)
      .all();
    expect(history.slice(1)).toEqual([
      {
        actorUserId: admin.id,
        fromStatus: "PENDING_PAYMENT",
        toStatus: "PENDING",
        note: "Paid at the desk",
      },
      { actorUserId: admin.id, fromStatus: "PENDING", toStatus: "CONFIRMED", note: null },
    ]);

    const cancelled = await put(bookingId, { status: "CANCELLED" });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ status: "CANCELLED" });
    const out = await refused(() => put(bookingId, { status: "COMPLETED" }));
    expect(out.status).toBe(422);
    expect(JSON.parse(out.body).message).toBe("A cancelled booking cannot change status.");
  });
});

describe("staff cancelling a paid booking", () => {
  it("refunds everything paid through the provider, once, and tells the customer", async () => {
    const id = await bookingOf(customer);
    const total = server.db
      .select({ totalCost: bookings.totalCost })
      .from(bookings)
      .where(eq(bookings.id, id))
      .get()?.totalCost;
    const paid = await api(`/api/bookings/${id}/payments/direct`, {
      method: "POST",
      cookie: customer.cookie,
      body: cardBody(total),
    });
    expect(paid.status).toBe(200);

    const cancelled = await api(`/api/admin/bookings/${id}`, {
      method: "PUT",
      cookie: admin.cookie,
      body: { status: "CANCELLED", note: "Studio flooded" },
    });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ id, status: "CANCELLED" });
    const money = server.db
      .select({ amount: payments.amount, paymentMethod: payments.paymentMethod })
      .from(payments)
      .where(eq(payments.bookingId, id))
      .orderBy(payments.id)
      .all();
    expect(money).toEqual([
      { amount: total, paymentMethod: "card" },
      { amount: -(total ?? 0), paymentMethod: "refund" },
    ]);
    const email = outboxOf(id, "booking-cancelled");
    expect(email[0]?.text).toContain("the studio had to cancel");

    const again = await refused(() =>
      api(`/api/admin/bookings/${id}`, {
        method: "PUT",
        cookie: admin.cookie,
        body: { status: "CANCELLED" },
      }),
    );
    expect(again.status).toBe(422);
  });
});

describe("the tabs' forms", () => {
  it("refuse an empty bulk selection with the error of docs/product.md 'Messages', writing nothing", async () => {
    const empty = await refused(() =>
      postForm("/admin/sessions", admin.cookie, [
        ["intent", "bulk"],
        ["status", "CONFIRMED"],
      ]),
    );
    expect(empty.status).toBe(400);
    expect(empty.body).toContain("No bookings selected");
    expect(empty.body).toContain("Please select at least one booking to update");
  });

  it("refuse a status that is not one, and an id that is not a booking", async () => {
    const id = await bookingOf(customer);
    const badStatus = await refused(() =>
      postForm("/admin/bookings", admin.cookie, [
        ["intent", "status"],
        ["id", String(id)],
        ["status", "ARCHIVED"],
      ]),
    );
    expect(badStatus.status).toBe(400);
    expect(badStatus.body).toContain("Error updating booking");
    const badId = await refused(() =>
      postForm("/admin/bookings", admin.cookie, [
        ["intent", "status"],
        ["id", "999999"],
        ["status", "PENDING"],
      ]),
    );
    expect(badId.status).toBe(404);
    const bulkOnBookings = await refused(() =>
      postForm("/admin/bookings", admin.cookie, [
        ["intent", "bulk"],
        ["ids", String(id)],
        ["status", "PENDING"],
      ]),
    );
    expect(bulkOnBookings.status).toBe(400);
  });

  it("bulk-updates X of Y and goes back to the list without the selection", async () => {
    const a = await bookingOf(customer);
    const b = await bookingOf(customer);
    const response = await postForm(
      "/admin/sessions?status=PENDING_PAYMENT&selected=all",
      admin.cookie,
      [
        ["intent", "bulk"],
        ["ids", String(a)],
        ["ids", String(b)],
        ["ids", "999999"],
        ["status", "PENDING"],
      ],
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/sessions?status=PENDING_PAYMENT");
    const statuses = server.db
      .select({ status: bookings.status })
      .from(bookings)
      .where(inArray(bookings.id, [a, b]))
      .all();
    expect(statuses.map((row) => row.status)).toEqual(["PENDING", "PENDING"]);
    const page = await fetch(`${server.url}/admin/sessions?status=PENDING_PAYMENT`, {
      headers: {
        Cookie: [admin.cookie, ...response.headers.getSetCookie().map((c) => c.split(";")[0])].join(
          "; ",
        ),
      },
    });
    expect(await page.text()).toMatch(
      /Successfully updated 2 of 3 bookings to (&quot;|")Pending Review(&quot;|")/,
    );
  });
});
