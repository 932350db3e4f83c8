import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, count, eq, lt, ne } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { afterAll } from "vitest";
import { bookings, payments } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { openDatabaseFile, type TestDatabase } from "#tests/factories/database";
import { bookingPayload, cardBody } from "#tests/setup/payloads";
import {
  collectOutput,
  cookiesFrom,
  freePort,
  openRegistration,
  registrationPayload,
  spawnServer,
  waitUntilHealthy,
} from "#tests/setup/server";

/**
 * What the crash and fault checks share: production servers as child processes on a database
 * file the test chooses (so one can be killed and restarted on it, or two can share it), and
 * a stream of bookings and payments that records every write the server acknowledged.
 */
export type Json = Record<string, unknown>;

export type ServerProcess = {
  url: string;
  pid: number;
  output(): string;
  /** Sends the signal and resolves once the process is gone. */
  kill(signal: "SIGKILL" | "SIGTERM"): Promise<void>;
  /** Resident memory in kB, from /proc (Linux). */
  rssKb(): number;
  /** The highest resident memory so far in kB (VmHWM). */
  peakRssKb(): number;
};

function procStatusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  if (!match?.[1]) throw new Error(`No ${field} in /proc status`);
  return Number(match[1]);
}

export function tempDatabasePath(label: string): string {
  return join(tmpdir(), `studio-${label}-${randomUUID()}.db`);
}

export function removeDatabase(path: string) {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
}

const running = new Set<ChildProcess>();
// A failed assertion must not leave servers behind holding the file and a port.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * What every reliability server runs with, before a test's own settings. The loads come from
 * one address and one account at a time, book years ahead and sign staff in with a sign-in row:
 * every limit is raised, each has its own tests.
 */
const RELIABILITY_ENV: Record<string, string> = {
  SESSION_SECRET: "reliability-test-secret-0123456789abcdef",
  // The load mixes in logins from one address; the limits have their own tests.
  LOGIN_RATE_LIMIT: "1000000",
  LOGIN_ACCOUNT_LIMIT: "1000000",
  REGISTER_RATE_LIMIT: "1000000",
  // One customer books many unpaid sessions, years ahead, under load; the hold cap, the
  // horizon and the coupon lookup limit have their own tests.
  MAX_UNPAID_HOLDS: "1000",
  MAX_UNPAID_SESSIONS: "1000",
  BOOKING_HORIZON_DAYS: "36500",
  COUPON_LOOKUP_LIMIT: "1000000",
  // The loads' admins sign in with a sign-in row, without a second factor; the staff gate
  // and the code limit have their own tests.
  REQUIRE_STAFF_2FA: "false",
  TWO_FACTOR_CODE_LIMIT: "1000000",
  BOOKING_RATE_LIMIT: "1000000",
  PAYMENT_STATUS_LIMIT: "1000000",
};

export async function launchServer(
  dbPath: string,
  extraEnv: Record<string, string> = {},
  options: { cgroupProcs?: string[] } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawnServer(port, dbPath, { ...RELIABILITY_ENV, ...extraEnv }, options);
  running.add(child);
  child.once("exit", () => running.delete(child));
  const output = collectOutput(child);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(child, url, output);
  openRegistration(dbPath);
  const pid = child.pid;
  if (pid === undefined) throw new Error("The server has no pid");
  return {
    url,
    pid,
    output,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill(signal);
      await exited;
    },
    rssKb: () => procStatusKb(pid, "VmRSS"),
    peakRssKb: () => procStatusKb(pid, "VmHWM"),
  };
}

/**
 * A database file of the test file's own, and `launch` for servers on it. After the file's
 * tests every server launched is stopped with `stopSignal` and the file is removed.
 */
export function databaseForThisFile(label: string, stopSignal: "SIGKILL" | "SIGTERM" = "SIGTERM") {
  const dbPath = tempDatabasePath(label);
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await server.kill(stopSignal);
    removeDatabase(dbPath);
  });
  return {
    dbPath,
    async launch(
      extraEnv: Record<string, string> = {},
      options: { cgroupProcs?: string[] } = {},
    ): Promise<ServerProcess> {
      const server = await launchServer(dbPath, extraEnv, options);
      servers.push(server);
      return server;
    },
  };
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function postJson(url: string, path: string, body: unknown, cookie?: string) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    // not JSON: the caller looks at `text`
  }
  return { status: response.status, headers: response.headers, json, text };
}

export type Customer = { id: number; username: string; password: string; cookie: string };

export async function signUp(url: string): Promise<Customer> {
  const payload = registrationPayload();
  const response = await fetch(`${url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(payload),
  });
  if (response.status !== 201) throw new Error(`Sign-up answered ${response.status}`);
  const user = (await response.json()) as { id: number };
  return {
    id: user.id,
    username: String(payload.username),
    password: String(payload.password),
    cookie: cookiesFrom(response),
  };
}

export type Slot = { date: string; time: string };

/**
 * Distinct, non-overlapping two-hour sessions (the shortest allowed), from the first bookable
 * day on: 00:00, 02:00 ... 22:00, then the next day. A clock-change hour answers 400, which
 * the checks simply count as not acknowledged.
 */
export function slotSequence(daysAfterEarliest = 1): () => Slot {
  const first = addStudioDays(earliestBookableDate(Date.now()), daysAfterEarliest);
  let index = 0;
  return () => {
    const day = Math.floor(index / 12);
    const hour = (index % 12) * 2;
    index += 1;
    return { date: addStudioDays(first, day), time: `${String(hour).padStart(2, "0")}:00` };
  };
}

export function bookingBody(slot: Slot, hours = 2): Json {
  return bookingPayload(slot.date, slot.time, hours);
}

export { cardBody };

/** POST /api/bookings for a session in `slot`, as `customer`. */
export function postBooking(url: string, customer: Customer, slot: Slot, hours = 2) {
  return postJson(url, "/api/bookings", bookingBody(slot, hours), customer.cookie);
}

export type AckedBooking = { id: number; userId: number; date: string; time: string };
export type AckedPayment = { bookingId: number; transactionId: string };

/**
 * Workers that each book the next free slot, then pay it by card, until stopped. Only 2xx
 * answers are recorded: those writes the server promised to keep. A refused connection (the
 * server was killed) ends nothing by itself; the test stops the stream.
 */
export function bookingStream(
  url: string,
  customers: Customer[],
  nextSlot: () => Slot,
  options: { workers: number; pay: boolean },
) {
  const bookings: AckedBooking[] = [];
  const payments: AckedPayment[] = [];
  const statuses: Record<string, number> = {};
  let stopped = false;
  let inFlight = 0;
  let failures = 0;
  const count = (key: string) => {
    statuses[key] = (statuses[key] ?? 0) + 1;
  };

  async function request(path: string, body: Json, cookie: string) {
    inFlight += 1;
    try {
      const answer = await postJson(url, path, body, cookie);
      count(String(answer.status));
      return answer;
    } catch {
      failures += 1;
      count("no answer");
      return null;
    } finally {
      inFlight -= 1;
    }
  }

  async function worker(customer: Customer) {
    while (!stopped) {
      const slot = nextSlot();
      const booked = await request("/api/bookings", bookingBody(slot), customer.cookie);
      if (booked === null) {
        await sleep(20);
        continue;
      }
      if (booked.status !== 201) continue;
      const id = Number(booked.json.id);
      bookings.push({ id, userId: customer.id, ...slot });
      if (!options.pay) continue;
      const paid = await request(
        `/api/bookings/${id}/payments/direct`,
        cardBody(booked.json.totalCost),
        customer.cookie,
      );
      if (paid?.status === 200) {
        payments.push({ bookingId: id, transactionId: String(paid.json.transactionId) });
      }
    }
  }

  const done = Promise.all(
    Array.from({ length: options.workers }, (_, i) =>
      worker(customers[i % customers.length] as Customer),
    ),
  );
  return {
    bookings,
    payments,
    statuses,
    inFlight: () => inFlight,
    failures: () => failures,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A read-only look at a database file through drizzle, closed after `use`. */
export function inspect<T>(path: string, use: (db: TestDatabase) => T): T {
  const db = openDatabaseFile(path, { readonly: true });
  try {
    return use(db);
  } finally {
    db.$client.close();
  }
}

/** SQLite's own check of the file, "ok" when sound. */
export function integrityCheck(db: TestDatabase): string {
  const rows = db.$client.pragma("integrity_check") as { integrity_check: string }[];
  return rows.map((row) => row.integrity_check).join("; ");
}

/** Foreign keys pointing at no row. */
export function foreignKeyProblems(db: TestDatabase): unknown[] {
  return db.$client.pragma("foreign_key_check") as unknown[];
}

/** Rows of bookings, optionally only the live ones (everything but CANCELLED). */
export function bookingCount(db: TestDatabase, options: { live?: boolean } = {}): number {
  return (
    db
      .select({ n: count() })
      .from(bookings)
      .where(options.live ? ne(bookings.status, "CANCELLED") : undefined)
      .get()?.n ?? 0
  );
}

/** Acknowledged bookings the database does not hold as acknowledged (same id, owner, slot). */
export function missingBookings(db: TestDatabase, acked: AckedBooking[]): AckedBooking[] {
  return acked.filter((booking) => {
    const row = db
      .select({
        userId: bookings.userId,
        date: bookings.recordingDate,
        time: bookings.recordingTime,
      })
      .from(bookings)
      .where(eq(bookings.id, booking.id))
      .get();
    return row?.userId !== booking.userId || row.date !== booking.date || row.time !== booking.time;
  });
}

/** Acknowledged payments without their payment row or without their booking marked paid. */
export function missingPayments(db: TestDatabase, acked: AckedPayment[]): AckedPayment[] {
  return acked.filter((payment) => {
    const row = db
      .select({ status: bookings.status })
      .from(payments)
      .innerJoin(bookings, eq(bookings.id, payments.bookingId))
      .where(
        and(
          eq(payments.transactionId, payment.transactionId),
          eq(payments.bookingId, payment.bookingId),
        ),
      )
      .get();
    return row?.status !== "PENDING";
  });
}

/** Pairs of live bookings whose sessions overlap: a double booking. */
export function overlappingLiveBookings(db: TestDatabase): { a: number; b: number }[] {
  const first = alias(bookings, "a");
  const second = alias(bookings, "b");
  return db
    .select({ a: first.id, b: second.id })
    .from(first)
    .innerJoin(
      second,
      and(
        lt(first.id, second.id),
        lt(first.startsAt, second.endsAt),
        lt(second.startsAt, first.endsAt),
      ),
    )
    .where(and(ne(first.status, "CANCELLED"), ne(second.status, "CANCELLED")))
    .all();
}
