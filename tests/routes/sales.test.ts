import { beforeAll, describe, expect, it } from "vitest";
import type { Booking } from "#db/schema";
import { studioInstant } from "#app/domain/studio-time";
import { createBooking } from "#tests/factories/booking";
import type { FactoryDb } from "#tests/factories/database";
import { createPayment } from "#tests/factories/payment";
import { createUser, uniqueUsername } from "#tests/factories/user";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * Sales against the app in process: GET /api/admin/payments (the list of
 * docs/product.md "The JSON API", paged by a Link header), the CSV export of /admin/sales/export
 * (content type, file name, studio time, the formula guard, streaming past one chunk) and the Sales
 * tab's page and Refresh. Each refuses visitors and customers and writes nothing for anyone.
 */
const server = appForThisFile();
const people = actorsFor(server);

type Payment = { id: number; bookingId: number; amount: number; paymentDate: string };

let admin: Actor;
let customer: Actor;

function get(path: string, cookie?: string) {
  return fetch(`${server.url}${path}`, {
    redirect: "manual",
    headers: { Origin: server.url, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/** A client with a completed booking, to hang payments at studio wall times on. */
async function seedClient(
  firstName: string,
  options: { stakeholder?: string; isMember?: boolean } = {},
): Promise<Booking> {
  const db = people.db();
  const user = await createUser(db, {
    username: uniqueUsername("sales"),
    firstName,
    lastName: "Client",
    email: "c@example.com",
    isMember: options.isMember ?? false,
  });
  return createBooking(db, {
    user,
    date: "2026-06-01",
    stakeholder: options.stakeholder ?? "no",
    status: "COMPLETED",
  });
}

function seedPayment(
  booking: Booking,
  amount: number,
  at: number,
  method = "card",
  db: FactoryDb = people.db(),
): number {
  return createPayment(db, { booking, amount, paymentDate: at, paymentMethod: method }).id;
}

/** Sends a request that must change nothing, and returns it. */
async function unchanged(send: () => Promise<Response>) {
  const before = people.snapshot();
  const response = await send();
  await response.arrayBuffer();
  expect(people.snapshot()).toEqual(before);
  return response;
}

const RANGE_DAY = "2031-03-09"; // the Sunday of a spring-forward weekend
let paidIds: number[];

beforeAll(async () => {
  admin = await people.signUpAdmin();
  customer = await people.signUp();
  const stakeholder = await seedClient("Stella", { stakeholder: "YES" });
  const attacker = await seedClient('=HYPERLINK("http://evil.example","x")');
  paidIds = [
    seedPayment(stakeholder, 300, studioInstant(RANGE_DAY, "00:00")),
    seedPayment(attacker, 400, studioInstant(RANGE_DAY, "09:30")),
    seedPayment(stakeholder, -150, studioInstant(RANGE_DAY, "23:00"), "refund"),
  ];
  // Just outside the day on both sides.
  seedPayment(stakeholder, 1, studioInstant(RANGE_DAY, "00:00") - 1);
  seedPayment(stakeholder, 2, studioInstant("2031-03-10", "00:00"));
});

const DAY_QUERY = `period=custom&from=${RANGE_DAY}&to=${RANGE_DAY}`;

describe("GET /api/admin/payments", () => {
  it("refuses visitors (401) and customers (403)", async () => {
    const visitor = await unchanged(() => get(`/api/admin/payments?${DAY_QUERY}`));
    expect(visitor.status).toBe(401);
    const asCustomer = await unchanged(() =>
      get(`/api/admin/payments?${DAY_QUERY}`, customer.cookie),
    );
    expect(asCustomer.status).toBe(403);
  });

  it("lists the period's payments and refunds newest first, in the shape of docs/product.md 'The JSON API'", async () => {
    const response = await unchanged(() => get(`/api/admin/payments?${DAY_QUERY}`, admin.cookie));
    expect(response.status).toBe(200);
    expect(response.headers.get("Link")).toBeNull();
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    const body = (await get(`/api/admin/payments?${DAY_QUERY}`, admin.cookie).then((r) =>
      r.json(),
    )) as Payment[];
    expect(body.map((p) => p.id)).toEqual([...paidIds].reverse());
    expect(body[0]).toEqual({
      id: paidIds[2],
      bookingId: expect.any(Number),
      amount: -150,
      paymentDate: new Date(studioInstant(RANGE_DAY, "23:00")).toISOString(),
    });
    expect(Object.keys(body[0] ?? {}).sort()).toEqual(["amount", "bookingId", "id", "paymentDate"]);
  });

  it("pages by 100 with a Link to the next page", async () => {
    const client = await seedClient("Paged");
    const day = "2032-05-05";
    for (let i = 0; i < 130; i += 1)
      seedPayment(client, 10, studioInstant(day, "08:00") + i * 1000);
    const query = `period=custom&from=${day}&to=${day}`;
    const first = await get(`/api/admin/payments?${query}&page=1`, admin.cookie);
    const firstRows = (await first.json()) as Payment[];
    expect(firstRows.length).toBe(100);
    const link = first.headers.get("Link");
    expect(link).toBe(`</api/admin/payments?${query}&page=2>; rel="next"`);
    const second = await get(`/api/admin/payments?${query}&page=2`, admin.cookie);
    const secondRows = (await second.json()) as Payment[];
    expect(secondRows.length).toBe(30);
    expect(second.headers.get("Link")).toBeNull();
    // Without paging parameters: the whole period (the spec's client sums it), same order.
    const whole = await get(`/api/admin/payments?${query}`, admin.cookie);
    expect(whole.headers.get("Link")).toBeNull();
    expect(((await whole.json()) as Payment[]).map((p) => p.id)).toEqual(
      [...firstRows, ...secondRows].map((p) => p.id),
    );
  });

  it("answers 400 with a message for a period it cannot read, and 405 for other methods", async () => {
    const backwards = await unchanged(() =>
      get("/api/admin/payments?period=custom&from=2031-02-01&to=2031-01-01", admin.cookie),
    );
    expect(backwards.status).toBe(400);
    expect(
      await get(
        "/api/admin/payments?period=custom&from=2031-02-01&to=2031-01-01",
        admin.cookie,
      ).then((r) => r.json()),
    ).toMatchObject({
      message: "The end date must be on or after the start date",
      errors: { to: ["The end date must be on or after the start date"] },
    });
    const unknown = await get("/api/admin/payments?period=decade", admin.cookie);
    expect(unknown.status).toBe(400);
    const post = await unchanged(() =>
      fetch(`${server.url}/api/admin/payments`, {
        method: "POST",
        headers: { Origin: server.url, Cookie: admin.cookie, "Content-Type": "application/json" },
        body: "{}",
      }),
    );
    expect(post.status).toBe(405);
  });
});

describe("GET /admin/sales/export", () => {
  it("sends visitors to sign in and customers to their dashboard", async () => {
    const visitor = await unchanged(() => get(`/admin/sales/export?${DAY_QUERY}`));
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/auth"]);
    const asCustomer = await unchanged(() =>
      get(`/admin/sales/export?${DAY_QUERY}`, customer.cookie),
    );
    expect([asCustomer.status, asCustomer.headers.get("Location")]).toEqual([302, "/dashboard"]);
  });

  it("is a CSV attachment of the period in studio time, formulas defused, refunds as numbers", async () => {
    const response = await unchanged(() => get(`/admin/sales/export?${DAY_QUERY}`, admin.cookie));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="sales-custom-${RANGE_DAY}-to-${RANGE_DAY}.csv"`,
    );
    const text = await get(`/admin/sales/export?${DAY_QUERY}`, admin.cookie).then((r) => r.text());
    const lines = text.trimEnd().split("\r\n");
    expect(lines).toEqual([
      "Payment ID,Booking ID,Date (Atlanta time),Client,Type,Amount (USD),Method",
      expect.stringMatching(
        new RegExp(
          `^${paidIds[2]},\\d+,${RANGE_DAY} 23:00:00,Stella Client,Stakeholder,-150,refund$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^${paidIds[1]},\\d+,${RANGE_DAY} 09:30:00,"'=HYPERLINK\\(""http://evil.example"",""x""\\) Client",Non-Member,400,card$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(`^${paidIds[0]},\\d+,${RANGE_DAY} 00:00:00,Stella Client,Stakeholder,300,card$`),
      ),
    ]);
  });

  it("has only its header for a period without payments", async () => {
    const text = await get(
      "/admin/sales/export?period=custom&from=1999-01-01&to=1999-01-31",
      admin.cookie,
    ).then((r) => r.text());
    expect(text).toBe(
      "Payment ID,Booking ID,Date (Atlanta time),Client,Type,Amount (USD),Method\r\n",
    );
  });

  it("streams a period larger than one chunk, every payment once", async () => {
    const client = await seedClient("Bulk");
    const day = "2033-08-08";
    const ids = new Set<number>();
    people.db().transaction((tx) => {
      // Many share an instant: the walk must not skip or repeat ties.
      for (let i = 0; i < 2_345; i += 1)
        ids.add(seedPayment(client, 5, studioInstant(day, "12:00") + (i % 500), "card", tx));
    });
    const text = await get(
      `/admin/sales/export?period=custom&from=${day}&to=${day}`,
      admin.cookie,
    ).then((r) => r.text());
    const got = text
      .trimEnd()
      .split("\r\n")
      .slice(1)
      .map((line) => Number(line.split(",")[0]));
    expect(got.length).toBe(ids.size);
    expect(new Set(got)).toEqual(ids);
    // Seeding 2,345 payments and streaming them back is slow on a loaded machine.
  }, 90_000);

  it("answers 400 with a message for a period it cannot read", async () => {
    const response = await unchanged(() =>
      get("/admin/sales/export?period=custom&from=2031-02-30", admin.cookie),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  });
});

describe("the Sales tab", () => {
  it("shows the period's totals, chart and payments to an admin", async () => {
    const response = await unchanged(() => get(`/admin/sales?${DAY_QUERY}`, admin.cookie));
    expect(response.status).toBe(200);
    const html = await get(`/admin/sales?${DAY_QUERY}`, admin.cookie).then((r) => r.text());
    expect(html).toContain("Sales Dashboard");
    expect(html).toContain("Track performance and revenue metrics");
    // Total $550 net; stakeholder 300 - 150; non-member 400.
    expect(html).toMatch(/Total Sales<\/dt><dd[^>]*>\$550\.00/);
    expect(html).toMatch(/Stakeholder Sales<\/dt><dd[^>]*>\$150\.00/);
    expect(html).toMatch(/Non-Member Sales<\/dt><dd[^>]*>\$400\.00/);
    expect(html).toContain('role="img"');
    expect(html).toContain(
      `href="/admin/sales/export?period=custom&amp;from=${RANGE_DAY}&amp;to=${RANGE_DAY}"`,
    );
  });

  it("refuses a range that ends before it starts, with the message at the field", async () => {
    const response = await get(
      "/admin/sales?period=custom&from=2031-02-01&to=2031-01-01",
      admin.cookie,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("The end date must be on or after the start date");
    expect(html).toContain('aria-describedby="sales-range-hint sales-to-error"');
    expect(html).not.toContain("Total Sales");
  });

  it("Refresh goes back to the same view with 'Data refreshed'", async () => {
    const response = await unchanged(() =>
      fetch(`${server.url}/admin/sales?${DAY_QUERY}`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.url, Cookie: admin.cookie },
        body: new URLSearchParams({ intent: "refresh", _hydrated: "1" }),
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin/sales?${DAY_QUERY}`);
    const toast = response.headers.getSetCookie().find((c) => c.startsWith("toast-session="));
    expect(toast).toBeDefined();
    const page = await get(`/admin/sales?${DAY_QUERY}`, `${admin.cookie}; ${toast?.split(";")[0]}`);
    expect(await page.text()).toContain("Data refreshed");
  });
});
