import Database from "better-sqlite3";
import { count as rows, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { bookings as bookingsTable, payments as paymentsTable } from "#db/schema";
import {
  bookingBody,
  cardBody,
  type Customer,
  databaseForThisFile,
  inspect,
  postBooking,
  postJson,
  type ServerProcess,
  signUp,
  sleep,
  slotSequence,
} from "#tests/reliability/support";
import { freePort } from "#tests/setup/server";

/** The metrics' count of writes answered 503 because the lock outlasted busy_timeout. */
async function busyAnswers(): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split("\n").find((l) => l.startsWith("studio_sqlite_busy_total "));
  return Number(line?.split(" ")[1] ?? Number.NaN);
}

/**
 * docs/quality.md "Faults": a busy database is retried, not an error page. Another connection (here
 * the test, as an operator's shell or a second process would) holds SQLite's write lock. A
 * short lock is waited out (busy_timeout, 5 s in app/db.server.ts); a lock that outlasts it
 * gets a 503 with Retry-After and the site's own words, never a 500 or a stack, and no write.
 */
const BUSY_MESSAGE = "The booking system is busy right now. Please try again in a moment.";
const FORM_ERROR = "There was a problem processing your form. Please try again.";

const { dbPath, launch } = databaseForThisFile("busy");
let server: ServerProcess;
let customer: Customer;
let metricsUrl: string;
const nextSlot = slotSequence();
beforeAll(async () => {
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  server = await launch({ METRICS_PORT: String(metricsPort), METRICS_HOST: "127.0.0.1" });
  customer = await signUp(server.url);
});

/** Holds the write lock, as `BEGIN IMMEDIATE` in a sqlite3 shell would, until released. */
function holdWriteLock() {
  const connection = new Database(dbPath);
  connection.exec("BEGIN IMMEDIATE");
  let held = true;
  return {
    held: () => held,
    release() {
      connection.exec("COMMIT");
      connection.close();
      held = false;
    },
  };
}

const TABLES = { bookings: bookingsTable, payments: paymentsTable };
const count = (table: keyof typeof TABLES) =>
  inspect(dbPath, (db) => db.select({ n: rows() }).from(TABLES[table]).get()?.n ?? 0);

it("waits out a lock shorter than busy_timeout and then books and takes payments", async () => {
  const unpaid = await postBooking(server.url, customer, nextSlot());
  expect(unpaid.status).toBe(201);

  const lock = holdWriteLock();
  const answered = <T>(request: Promise<T>) =>
    request.then((answer) => ({ ...answer, lockHeldAtAnswer: lock.held() }));
  const bookings = Array.from({ length: 5 }, () =>
    answered(postBooking(server.url, customer, nextSlot())),
  );
  const payment = answered(
    postJson(
      server.url,
      `/api/bookings/${unpaid.json.id}/payments/direct`,
      cardBody(unpaid.json.totalCost),
      customer.cookie,
    ),
  );
  await sleep(1_500);
  const releasedAt = Date.now();
  lock.release();

  const answers = await Promise.all(bookings);
  expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
  const paid = await payment;
  expect(paid.status).toBe(200);
  // No answer came while the lock was held: none got past it, none failed on it.
  expect([...answers, paid].every((answer) => !answer.lockHeldAtAnswer)).toBe(true);
  const createdAt = inspect(dbPath, (db) =>
    answers.map(
      (answer) =>
        db
          .select({ at: bookingsTable.createdAt })
          .from(bookingsTable)
          .where(eq(bookingsTable.id, Number(answer.json.id)))
          .get()?.at,
    ),
  );
  expect(createdAt.every((at) => at !== undefined)).toBe(true);
  // The server took a booking in while the lock was held (it stamps the time it started),
  // waited for the lock and then wrote it. (The node process waits synchronously, so the
  // others queue behind that one.)
  expect(createdAt.some((at) => at !== undefined && at < releasedAt)).toBe(true);
});

it("answers 503 with Retry-After, writes nothing and shows no error page when the lock outlasts busy_timeout", async () => {
  const unpaid = await postBooking(server.url, customer, nextSlot());
  expect(unpaid.status).toBe(201);
  const refusedSlot = nextSlot();
  const before = { bookings: count("bookings"), payments: count("payments") };
  const busyBefore = await busyAnswers();

  const lock = holdWriteLock();
  let booking: Awaited<ReturnType<typeof postJson>>;
  let payment: Awaited<ReturnType<typeof postJson>>;
  let page: { status: number; text: string };
  try {
    // One after the other: the server waits out the lock for each of them in turn.
    booking = await postJson(
      server.url,
      "/api/bookings",
      bookingBody(refusedSlot),
      customer.cookie,
    );
    payment = await postJson(
      server.url,
      `/api/bookings/${unpaid.json.id}/payments/direct`,
      cardBody(unpaid.json.totalCost),
      customer.cookie,
    );
    // The booking form on the landing page, posted without JavaScript.
    const response = await fetch(`${server.url}/?index`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.url, Cookie: customer.cookie },
      body: new URLSearchParams({
        intent: "book",
        ...(bookingBody(nextSlot()) as Record<string, string>),
        isRetainer: "",
      }),
    });
    page = { status: response.status, text: await response.text() };
    expect(lock.held()).toBe(true);
  } finally {
    lock.release();
  }

  for (const answer of [booking, payment]) {
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({ message: BUSY_MESSAGE });
    expect(answer.headers.get("Retry-After")).toBe("5");
  }
  expect(page.status).toBe(503);
  expect(page.text).toContain(FORM_ERROR);
  expect(page.text).not.toContain("Something went wrong");
  for (const text of [booking.text, payment.text, page.text, server.output()]) {
    expect(text).not.toMatch(/SQLITE|SqliteError|\n\s+at /);
  }
  expect({ bookings: count("bookings"), payments: count("payments") }).toEqual(before);
  // Each of the three is counted (a background sweep meeting the lock would add to it).
  expect((await busyAnswers()) - busyBefore).toBeGreaterThanOrEqual(3);

  // Once the lock is gone the same request goes through.
  const retried = await postJson(
    server.url,
    "/api/bookings",
    bookingBody(refusedSlot),
    customer.cookie,
  );
  expect(retried.status).toBe(201);
});
