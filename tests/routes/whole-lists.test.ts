import { beforeAll, describe, expect, it } from "vitest";
import { studioInstant } from "#app/domain/studio-time";
import { JSON_LIST_CHUNK_ROWS } from "#app/web/json-list.server";
import { LIMIT_MESSAGE, MAX_LIMIT } from "#app/models/pagination.server";
import { createBooking } from "#tests/factories/booking";
import { createCoupon } from "#tests/factories/catalog";
import { createPayment } from "#tests/factories/payment";
import { createSupportRequest } from "#tests/factories/support";
import { createUserWithoutPassword } from "#tests/factories/user";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { uniqueUsername } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * The admin lists of docs/product.md "The JSON API" as the spec's client reads them: without
 * paging parameters the whole list, streamed in chunks of JSON_LIST_CHUNK_ROWS rows, in the
 * admin tabs' order (the same rows, in the same order, as the pages walked with `?limit=500`),
 * with ties in the ordering column across a chunk's edge; `?page=&limit=` pages with a Link,
 * and a limit outside 1..500 is 400 with our message and writes nothing.
 */
const server = appForThisFile();
const { db, signUp, signUpAdmin, snapshot } = actorsFor(server);

type Json = Record<string, unknown>;
/** More than two chunks of every list, so a walk crosses a chunk's edge twice. */
const ROWS = JSON_LIST_CHUNK_ROWS * 2 + 37;
/** Rows share an ordering value in runs of this many: ties across every chunk's edge. */
const RUN = 7;
const PAYMENT_DAY = "2031-03-03";

let admin: Actor;

function get(path: string) {
  return fetch(`${server.url}${path}`, { headers: { Cookie: admin.cookie } });
}

/** The list walked page by page with the largest limit, following the Link header. */
async function pagedIds(path: string): Promise<number[]> {
  const ids: number[] = [];
  const glue = path.includes("?") ? "&" : "?";
  let next: string | null = `${path}${glue}limit=${MAX_LIMIT}&page=1`;
  while (next) {
    const response = await get(next);
    expect(response.status).toBe(200);
    const rows = (await response.json()) as Json[];
    expect(rows.length).toBeLessThanOrEqual(MAX_LIMIT);
    ids.push(...rows.map((row) => Number(row.id)));
    next = response.headers.get("Link")?.match(/^<([^>]+)>; rel="next"$/)?.[1] ?? null;
  }
  return ids;
}

beforeAll(async () => {
  admin = await signUpAdmin();
  const customer = await signUp();
  const writer = db();
  writer.transaction((tx) => {
    // Accounts without a password (a password hash each would take minutes).
    for (let i = 0; i < ROWS; i += 1) {
      createUserWithoutPassword(tx, {
        username: uniqueUsername("whole"),
        firstName: "Whole",
        lastName: "List",
        isMember: i % 3 === 0,
      });
      createCoupon(tx);
    }
    const user = { id: customer.id };
    for (let i = 0; i < ROWS; i += 1) {
      // Many bookings start at the same instant: the id breaks the tie, as on the tab.
      const booking = createBooking(tx, {
        user,
        date: `2031-0${1 + (Math.floor(i / RUN) % 9)}-1${Math.floor(i / RUN / 9) % 10}`,
        time: "10:00",
        hours: 2,
        status: i % 2 === 0 ? "COMPLETED" : "CANCELLED",
      });
      createPayment(tx, {
        booking,
        amount: 100,
        paymentDate: studioInstant(PAYMENT_DAY, "09:00") + Math.floor(i / RUN) * 1000,
      });
      createSupportRequest(tx, { user, createdAt: 1_900_000_000_000 + Math.floor(i / RUN) });
    }
  });
}, 120_000);

describe("the whole admin lists without paging parameters", () => {
  it.each([
    "/api/admin/users",
    "/api/admin/users?membership=members",
    "/api/admin/coupons",
    "/api/admin/bookings",
    "/api/admin/bookings?status=COMPLETED",
    "/api/admin/bookings?date=2031-01-10",
    "/api/admin/tech-assistance",
    "/api/admin/tech-assistance?status=PENDING",
    `/api/admin/payments?period=custom&from=${PAYMENT_DAY}&to=${PAYMENT_DAY}`,
    "/api/admin/payments",
  ])("%s answers every row, streamed, in the pages' order", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Content-Length")).toBeNull();
    expect(response.headers.get("Link")).toBeNull();
    const ids = ((await response.json()) as Json[]).map((row) => Number(row.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(await pagedIds(path));
  });

  it("crosses chunk edges (more rows than two chunks) in every list", async () => {
    for (const path of [
      "/api/admin/users",
      "/api/admin/coupons",
      "/api/admin/bookings",
      "/api/admin/tech-assistance?status=PENDING",
      `/api/admin/payments?period=custom&from=${PAYMENT_DAY}&to=${PAYMENT_DAY}`,
    ]) {
      const rows = (await (await get(path)).json()) as Json[];
      expect(rows.length, path).toBeGreaterThanOrEqual(ROWS);
    }
  });

  it("keeps the tabs' orders: bookings latest first (a day earliest first), payments newest first", async () => {
    const bookings = (await (await get("/api/admin/bookings")).json()) as Json[];
    const starts = bookings.map((row) => Date.parse(String(row.startsAt)));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    const day = (await (await get("/api/admin/bookings?date=2031-01-10")).json()) as Json[];
    expect(day.length).toBeGreaterThan(1);
    expect(day.map((row) => Number(row.id))).toEqual(
      day.map((row) => Number(row.id)).sort((a, b) => a - b),
    );
    const payments = (await (await get("/api/admin/payments")).json()) as Json[];
    const dates = payments.map((row) => Date.parse(String(row.paymentDate)));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const coupons = (await (await get("/api/admin/coupons")).json()) as Json[];
    const ids = coupons.map((row) => Number(row.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });
});

describe("paging with ?page=&limit=", () => {
  it("gives `limit` rows a page, up to 500, with a Link to the next", async () => {
    const response = await get("/api/admin/coupons?limit=500");
    expect(response.status).toBe(200);
    expect(((await response.json()) as Json[]).length).toBe(500);
    expect(response.headers.get("Link")).toBe('</api/admin/coupons?limit=500&page=2>; rel="next"');
    const small = await get("/api/admin/users?page=2&limit=3");
    expect(((await small.json()) as Json[]).length).toBe(3);
    expect(small.headers.get("Link")).toBe('</api/admin/users?page=3&limit=3>; rel="next"');
    const defaults = await get("/api/admin/payments?page=1");
    expect(((await defaults.json()) as Json[]).length).toBe(100);
  });

  it.each([
    "/api/admin/users?limit=501",
    "/api/admin/bookings?limit=0",
    "/api/admin/coupons?page=1&limit=abc",
    "/api/admin/tech-assistance?limit=1000000",
    "/api/admin/payments?limit=-1",
  ])("refuses %s with 400 and our message, writing nothing", async (path) => {
    const before = snapshot();
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: LIMIT_MESSAGE });
    expect(snapshot()).toEqual(before);
  });
});
