import type { ChildProcess } from "node:child_process";
import Database from "better-sqlite3";
import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookings, coupons, emailOutbox, orders } from "#db/schema";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { createCoupon } from "#tests/factories/catalog";
import type { TestDatabase } from "#tests/factories/database";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { bookingFormFields, bookingPayload, cardBody } from "#tests/setup/payloads";
import {
  collectOutput,
  freePort,
  INTEGRATION_SESSION_SECRET,
  spawnServer,
  waitUntilHealthy,
} from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * Booking a weekly series through POST /api/bookings (docs/product.md "Weekly series") against
 * the production build: the 201 with every session, each refusal with nothing written, and the
 * series race between two server processes on one database file.
 */
const server = serverForThisFile();
// A second site with the hold cap and the horizon production has (both off on the first).
const limited = serverForThisFile({ MAX_UNPAID_HOLDS: "2", BOOKING_HORIZON_DAYS: "60" });

const CONFLICTS =
  "Some sessions of this series cannot be booked. Leave out the taken dates or choose another time.";

const people = actorsFor(server);
const limitedPeople = actorsFor(limited);

type Json = Record<string, unknown>;
type Site = { url: string };

async function post(site: Site, path: string, body: unknown, cookie?: string) {
  const response = await fetch(`${site.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

// Each test's series starts on days of its own, 100 days after the last one's.
let firstDay = addStudioDays(studioDateOf(Date.now()), 3);
function freshStart(): string {
  firstDay = addStudioDays(firstDay, 100);
  return firstDay;
}

/** POST /api/bookings by `customer` (a visitor if none): `hours` from `time` on `date`. */
function book(
  site: Site,
  customer: Actor | undefined,
  date: string,
  time: string,
  hours = 2,
  overrides: Json = {},
) {
  return post(
    site,
    "/api/bookings",
    bookingPayload(date, time, hours, overrides),
    customer?.cookie,
  );
}

function series(
  site: Site,
  customer: Actor,
  date: string,
  repeat: unknown,
  overrides: Json = {},
  time = "19:00",
  hours = 2,
) {
  return book(site, customer, date, time, hours, { repeat, ...overrides });
}

/** `customer` books `date` 18:00-22:00 on the first site, clashing with a 19:00 series there. */
async function takeEvening(customer: Actor, date: string) {
  expect((await book(server, customer, date, "18:00", 4)).status).toBe(201);
}

/** A page form posted without JavaScript, by the holder of `cookie` or a visitor. */
async function postForm(fields: Record<string, string>, cookie?: string, site: Site = server) {
  const response = await fetch(`${site.url}/?index`, {
    method: "POST",
    redirect: "manual",
    headers: cookie ? { Cookie: cookie } : {},
    body: new URLSearchParams(fields),
  });
  return { response, body: await response.text() };
}

/** The booking form's fields for a 19:00-21:00 series from `date` (`repeat`: its repeat.* fields). */
const formFields = (date: string, repeat: Record<string, string>, intent = "book") => ({
  intent,
  ...bookingFormFields(date, "19:00", 2, { businessName: "" }),
  ...repeat,
});

function rowsOf(db: TestDatabase, userId: number) {
  return db
    .select()
    .from(bookings)
    .where(eq(bookings.userId, userId))
    .orderBy(bookings.startsAt)
    .all();
}

/** Rows everywhere a refused series could have written. */
function written(db: TestDatabase) {
  const n = (table: typeof bookings | typeof orders | typeof emailOutbox) =>
    db.select({ n: count() }).from(table).get()?.n ?? 0;
  return { bookings: n(bookings), series: n(orders), mail: n(emailOutbox) };
}

/** A refused request: its answer, after proving it wrote nothing. */
async function refused(db: TestDatabase, request: () => Promise<{ status: number; body: Json }>) {
  const before = written(db);
  const answer = await request();
  expect(written(db)).toEqual(before);
  return answer;
}

describe("POST /api/bookings with repeat", () => {
  it("books every session at the same studio time and answers 201 with each booking", async () => {
    const customer = await people.signUp();
    const date = freshStart();
    const { status, body } = await series(server, customer, date, { every: "2weeks", count: 3 });
    expect(status).toBe(201);
    const seriesId = body.seriesId as number;
    expect(Number.isInteger(seriesId)).toBe(true);
    const items = body.bookings as Json[];
    expect(items.map((item) => item.recordingDate)).toEqual([
      date,
      addStudioDays(date, 14),
      addStudioDays(date, 28),
    ]);
    for (const item of items) {
      expect(item).toMatchObject({
        userId: customer.id,
        recordingTime: "19:00",
        status: "PENDING_PAYMENT",
        totalCost: 400,
        checkoutUrl: `/checkout/series/${seriesId}`,
      });
    }
    const rows = rowsOf(server.db, customer.id);
    expect(rows.map((row) => [row.id, row.orderId])).toEqual(
      items.map((item) => [item.id, seriesId]),
    );
    const mails = server.db
      .select()
      .from(emailOutbox)
      .where(
        inArray(
          emailOutbox.bookingId,
          rows.map((row) => row.id),
        ),
      )
      .all();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(`/checkout/series/${seriesId}`);
  });

  it("refuses a bad repeat with our messages and writes nothing", async () => {
    const customer = await people.signUp();
    const date = freshStart();
    const cases: [unknown, string, string][] = [
      [{ every: "month", count: 3 }, "repeat.every", "Please choose how often the session repeats"],
      [{ count: 3 }, "repeat.every", "Please choose how often the session repeats"],
      [{ every: "week", count: 1 }, "repeat.count", "Please choose between 2 and 12 sessions"],
      [{ every: "week", count: 13 }, "repeat.count", "Please choose between 2 and 12 sessions"],
      [{ every: "week", count: 2.5 }, "repeat.count", "Please choose between 2 and 12 sessions"],
      [{ every: "week" }, "repeat.count", "Please choose between 2 and 12 sessions"],
      [
        { every: "week", count: 3, skip: ["soon"] },
        "repeat.skip.0",
        "Please leave out only dates of this series",
      ],
      ["weekly", "repeat", "Please choose how often the session repeats"],
    ];
    for (const [repeat, field, message] of cases) {
      const { status, body } = await refused(server.db, () =>
        series(server, customer, date, repeat),
      );
      expect(status, JSON.stringify(repeat)).toBe(400);
      expect((body.errors as Record<string, string[]>)[field]).toEqual([message]);
    }
  });

  it("refuses left-out dates that are not the series', leaving fewer than two, and a retainer", async () => {
    const customer = await people.signUp();
    const date = freshStart();
    const cases: [Json, Json, string][] = [
      [
        { every: "week", count: 3, skip: [addStudioDays(date, 1)] },
        {},
        "Please leave out only dates of this series",
      ],
      [
        { every: "week", count: 2, skip: [date, addStudioDays(date, 7)] },
        {},
        "A series needs at least 2 sessions. Book a single session instead, or keep more dates.",
      ],
      [
        { every: "week", count: 2 },
        { isRetainer: true },
        "A retainer package cannot be repeated. Please book it as a single session.",
      ],
    ];
    for (const [repeat, overrides, message] of cases) {
      const { status, body } = await refused(server.db, () =>
        series(server, customer, date, repeat, overrides),
      );
      expect(status).toBe(400);
      expect(body.message).toBe(message);
    }
  });

  it("answers 422 with each taken date's nearest free times; leaving them out books the rest", async () => {
    const other = await people.signUp();
    const customer = await people.signUp();
    const date = freshStart();
    const taken = addStudioDays(date, 14);
    await takeEvening(other, taken);

    const { status, body } = await refused(server.db, () =>
      series(server, customer, date, { every: "week", count: 6 }),
    );
    expect(status).toBe(422);
    expect(body).toEqual({
      message: CONFLICTS,
      conflicts: [{ recordingDate: taken, alternatives: ["16:00", "22:00", "15:00"] }],
    });

    const booked = await series(server, customer, date, {
      every: "week",
      count: 6,
      skip: [taken],
    });
    expect(booked.status).toBe(201);
    expect((booked.body.bookings as Json[]).map((item) => item.recordingDate)).toEqual(
      [0, 7, 21, 28, 35].map((days) => addStudioDays(date, days)),
    );
  });

  it("refuses a first session inside 48 hours", async () => {
    const customer = await people.signUp();
    const tomorrow = addStudioDays(studioDateOf(Date.now()), 1);
    const { status, body } = await refused(server.db, () =>
      series(server, customer, tomorrow, { every: "week", count: 2 }),
    );
    expect(status).toBe(400);
    expect(body.errors).toEqual({
      recordingDate: ["Booking must be at least 48 hours in advance"],
    });
  });

  it("uses a coupon once for the whole series", async () => {
    const customer = await people.signUp();
    const coupon = createCoupon(people.db(), { type: "PERCENTAGE", value: 10, maxUses: 1 });
    const { status, body } = await series(
      server,
      customer,
      freshStart(),
      { every: "week", count: 3 },
      { couponCode: coupon.code },
    );
    expect(status).toBe(201);
    expect(
      (body.bookings as Json[]).map((item) => [item.totalCost, item.discountAmount, item.couponId]),
    ).toEqual([
      // Every session carrying the discount names the coupon; the one use is the order's.
      [360, 40, coupon.id],
      [360, 40, coupon.id],
      [360, 40, coupon.id],
    ]);
    const uses = server.db.select().from(coupons).where(eq(coupons.id, coupon.id)).get();
    expect(uses?.currentUses).toBe(1);
    const order = server.db
      .select()
      .from(orders)
      .where(eq(orders.id, body.seriesId as number))
      .get();
    expect(order?.couponId).toBe(coupon.id);
    // Its one use is taken: the next series is refused whole.
    const again = await refused(server.db, () =>
      series(
        server,
        customer,
        freshStart(),
        { every: "week", count: 2 },
        { couponCode: coupon.code },
      ),
    );
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("This coupon is invalid or has expired.");
  });

  it("draws retainer hours in date order", async () => {
    const customer = await people.signUp();
    const start = freshStart();
    const retainer = await book(server, customer, start, "08:00", 2, { isRetainer: true });
    expect(retainer.status).toBe(201);
    const paid = await post(
      server,
      `/api/bookings/${retainer.body.id}/payments/direct`,
      cardBody(retainer.body.totalCost),
      customer.cookie,
    );
    expect(paid.status).toBe(200);
    // 6 of its 8 hours are left: 4 for the first session, 2 for the second, none for the third.
    const { status, body } = await series(
      server,
      customer,
      addStudioDays(start, 1),
      { every: "week", count: 3 },
      {},
      "19:00",
      4,
    );
    expect(status).toBe(201);
    expect(
      (body.bookings as Json[]).map((item) => [
        item.retainerHoursDrawn,
        item.totalCost,
        item.status,
      ]),
    ).toEqual([
      [4, 0, "CONFIRMED"],
      [2, 400, "PENDING_PAYMENT"],
      [0, 800, "PENDING_PAYMENT"],
    ]);
  });
});

describe("the hold cap and the horizon (MAX_UNPAID_HOLDS=2, BOOKING_HORIZON_DAYS=60)", () => {
  /** `customer`'s weekly series of `count` from `start` and a single 08:00 session that day. */
  async function seriesAndSingle(customer: Actor, start: string, count: number) {
    const first = await series(limited, customer, start, { every: "week", count });
    expect(first.status).toBe(201);
    const single = await book(limited, customer, start, "08:00");
    expect(single.status).toBe(201);
    return { first, single };
  }

  it("counts a series as one unpaid hold", async () => {
    const customer = await limitedPeople.signUp();
    const start = addStudioDays(studioDateOf(Date.now()), 5);
    // Four unpaid sessions, one hold: room for one more.
    const { first, single } = await seriesAndSingle(customer, start, 4);
    const third = await refused(limited.db, () =>
      series(limited, customer, addStudioDays(start, 1), { every: "week", count: 2 }),
    );
    expect(third.status).toBe(422);
    expect(third.body.openBookings).toEqual([
      expect.objectContaining({
        id: (first.body.bookings as Json[])[0]?.id,
        payUrl: `/checkout/series/${first.body.seriesId}`,
      }),
      expect.objectContaining({ id: single.body.id }),
    ]);
  });

  it("refuses a series posted from the form past the cap, linking the open series' checkout", async () => {
    const customer = await limitedPeople.signUp();
    const start = addStudioDays(studioDateOf(Date.now()), 6);
    const { first, single } = await seriesAndSingle(customer, start, 2);
    const before = written(limited.db);
    const { response, body: page } = await postForm(
      formFields(addStudioDays(start, 1), { "repeat.every": "2weeks", "repeat.count": "2" }),
      customer.cookie,
      limited,
    );
    expect(response.status).toBe(422);
    expect(page).toContain("You already have 2 unpaid bookings waiting for payment.");
    expect(page).toContain(`href="/checkout/series/${first.body.seriesId}"`);
    expect(page).toContain(`href="/dashboard/sessions/${single.body.id}/pay"`);
    expect(written(limited.db)).toEqual(before);
  });

  it("refuses a series whose last session is past the horizon", async () => {
    const customer = await limitedPeople.signUp();
    const last = addStudioDays(studioDateOf(Date.now()), 60);
    const { status, body } = await refused(limited.db, () =>
      series(limited, customer, addStudioDays(last, -6), { every: "week", count: 2 }),
    );
    expect(status).toBe(400);
    expect(body.message).toBe(
      `Sessions can be booked up to ${last}. Please choose an earlier date.`,
    );
  });
});

describe("the series race", () => {
  /** A second server process on the first one's database file: only SQLite's lock between them. */
  let second: { url: string; child: ChildProcess } | undefined;
  beforeAll(async () => {
    const port = await freePort();
    const child = spawnServer(port, server.dbPath, {
      SESSION_SECRET: INTEGRATION_SESSION_SECRET,
      REGISTER_RATE_LIMIT: "1000",
      MAX_UNPAID_HOLDS: "1000",
      MAX_UNPAID_SESSIONS: "1000",
      BOOKING_HORIZON_DAYS: "36500",
      BOOKING_RATE_LIMIT: "100000",
      ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
    });
    const output = collectOutput(child);
    const url = `http://127.0.0.1:${port}`;
    await waitUntilHealthy(child, url, output);
    second = { url, child };
  });
  afterAll(async () => {
    if (!second) return;
    const exited = new Promise((resolve) => second?.child.once("exit", resolve));
    second.child.kill("SIGTERM");
    await exited;
  });

  it("lets exactly one of two overlapping series win whole; the other gets 422 and no rows", async () => {
    if (!second) throw new Error("The second server is not running");
    const GROUPS = 8;
    // Customers and dates first, so the requests below are nothing but the series.
    const pairs = await Promise.all(
      Array.from({ length: GROUPS }, async () => {
        const [a, b] = await Promise.all([people.signUp(), people.signUp()]);
        if (!a || !b) throw new Error("no customers");
        return { a, b, start: freshStart() };
      }),
    );
    // Another connection holds the write lock while every request is sent, as a third process
    // would: both processes stop at their transaction's BEGIN IMMEDIATE with their series in
    // hand and, once the lock is let go, race for it; the one that loses runs after the other
    // committed, in the gap a lock-free check-then-write would leave open.
    const lock = new Database(server.dbPath);
    lock.exec("BEGIN IMMEDIATE");
    let answered = 0;
    const sent = pairs.map(({ a, b, start }, group) => {
      // A: 4 weeks from `start` at 19:00; B: 4 weeks from a week later at 18:00 for 3 hours,
      // so three of their sessions collide. Each to its own process, alternating.
      const sites = group % 2 === 0 ? [server, second as Site] : [second as Site, server];
      return Promise.all([
        series(sites[0] as Site, a, start, { every: "week", count: 4 }),
        series(
          sites[1] as Site,
          b,
          addStudioDays(start, 7),
          { every: "week", count: 4 },
          {},
          "18:00",
          3,
        ),
      ]).then((answers) => {
        answered += 1;
        return { a, b, start, answers };
      });
    });
    // Well inside busy_timeout (5 s): the requests arrive and wait; none can be answered.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(answered).toBe(0);
    lock.exec("COMMIT");
    lock.close();
    const groups = await Promise.all(sent);
    for (const { a, b, start, answers } of groups) {
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422]);
      const winner = answers[0]?.status === 201 ? a : b;
      const loser = winner === a ? b : a;
      const lost = answers.find((answer) => answer.status === 422);
      expect(lost?.body.message).toBe(CONFLICTS);
      const conflictDates = ((lost?.body.conflicts ?? []) as { recordingDate: string }[]).map(
        (conflict) => conflict.recordingDate,
      );
      // Whichever won, the loser's three sessions that collide are named.
      expect(conflictDates).toEqual([7, 14, 21].map((days) => addStudioDays(start, days)));
      const won = rowsOf(server.db, winner.id);
      expect(won).toHaveLength(4);
      expect(new Set(won.map((row) => row.orderId)).size).toBe(1);
      expect(rowsOf(server.db, loser.id)).toEqual([]);
      const seriesOfLoser = server.db
        .select()
        .from(orders)
        .where(eq(orders.userId, loser.id))
        .all();
      expect(seriesOfLoser).toEqual([]);
    }
  });
});

describe("the booking form's series and GET /api/availability/series", () => {
  it("previews every session for anyone, with our messages for a bad query", async () => {
    const other = await people.signUp();
    const date = freshStart();
    const taken = addStudioDays(date, 7);
    await takeEvening(other, taken);
    const response = await fetch(
      `${server.url}/api/availability/series?date=${date}&time=19:00&hours=2&every=week&count=3`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.json()).toEqual({
      date,
      time: "19:00",
      hours: 2,
      every: "week",
      count: 3,
      occurrences: [
        { recordingDate: date, problem: null, alternatives: [] },
        { recordingDate: taken, problem: "taken", alternatives: ["16:00", "22:00", "15:00"] },
        { recordingDate: addStudioDays(date, 14), problem: null, alternatives: [] },
      ],
    });
    const bad: [string, string][] = [
      [
        `date=${date}&time=19:00&hours=2&every=week&count=13`,
        "Please choose between 2 and 12 sessions",
      ],
      [
        `date=${date}&time=19:00&hours=2&every=month&count=3`,
        "Please choose how often the session repeats",
      ],
      [`date=2026-02-30&time=19:00&hours=2&every=week&count=3`, "Please select a date"],
      [`date=9999-12-30&time=19:00&hours=2&every=week&count=12`, "Please select a date"],
      [`date=${date}&time=19:30&hours=2&every=week&count=3`, "Please select a time"],
    ];
    for (const [query, message] of bad) {
      const answer = await fetch(`${server.url}/api/availability/series?${query}`);
      expect(answer.status, query).toBe(400);
      expect(await answer.json()).toEqual({ message });
    }
  });

  it("refuses a visitor's series (sent to sign in) and another account's userId, writing nothing", async () => {
    const customer = await people.signUp();
    const other = await people.signUp();
    const date = freshStart();
    const repeat = { "repeat.every": "week", "repeat.count": "3" };
    const before = written(server.db);
    const visitor = await postForm(formFields(date, repeat));
    expect(visitor.response.status).toBe(302);
    expect(visitor.response.headers.get("Location")).toBe("/auth#main");
    const api = await book(server, undefined, date, "19:00", 2, {
      repeat: { every: "week", count: 3 },
    });
    expect(api.status).toBe(401);
    const forOther = await series(
      server,
      customer,
      date,
      { every: "week", count: 3 },
      {
        userId: other.id,
      },
    );
    expect(forOther.status).toBe(403);
    expect(written(server.db)).toEqual(before);
    // "Check dates" is open to visitors, as the form is; it writes nothing either.
    const check = await postForm(formFields(date, repeat, "check-dates"));
    expect(check.response.status).toBe(200);
    expect(check.body).toContain(`data-date="${addStudioDays(date, 14)}"`);
    expect(written(server.db)).toEqual(before);
  });

  it("books a series from the form and sends the customer to pay for it", async () => {
    const customer = await people.signUp();
    const other = await people.signUp();
    const date = freshStart();
    const taken = addStudioDays(date, 7);
    await takeEvening(other, taken);
    const repeat = { "repeat.every": "week", "repeat.count": "3" };

    const refusedPost = await refused(server.db, async () => {
      const { response, body } = await postForm(formFields(date, repeat), customer.cookie);
      return { status: response.status, body: { page: body } };
    });
    expect(refusedPost.status).toBe(422);
    expect(String(refusedPost.body.page)).toContain(CONFLICTS);
    expect(String(refusedPost.body.page)).toContain("Nearest free times that day: 4:00 PM");

    const { response } = await postForm(
      { ...formFields(date, repeat), "repeat.skip": taken },
      customer.cookie,
    );
    expect(response.status).toBe(302);
    const location = response.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/checkout\/series\/\d+#main$/);
    const seriesId = Number(location.split("/").pop()?.split("#")[0]);
    expect(rowsOf(server.db, customer.id).map((row) => [row.recordingDate, row.orderId])).toEqual([
      [date, seriesId],
      [addStudioDays(date, 14), seriesId],
    ]);
  });
});
