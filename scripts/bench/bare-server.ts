/**
 * The baseline of `npm run bench`: a bare `node:http` server running the same SQLite statements
 * as the app's model functions for each benchmarked endpoint, on the same database file with
 * the same pragmas, and nothing else (no express, no router, no validation, no rendering). The
 * app's throughput divided by this one's is our overhead.
 *
 * Run as its own process (so it does not share an event loop with autocannon):
 *   BARE_PORT=... DATABASE_PATH=... tsx scripts/bench/bare-server.ts
 *
 * Signed-in requests name their sign-in id in `X-Bench-Sign-In`: the bare server looks it up
 * like the app does, but skips the cookie signature the app verifies.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { BOOKING_LIMITS, busyWindowFor } from "#app/domain/availability";
import { studioSession } from "#app/domain/studio-time";

const port = Number(process.env.BARE_PORT);
/** `GET /page` sends this file's bytes with this coding, as they are: the landing page from memory. */
const page = process.env.BARE_PAGE ? readFileSync(process.env.BARE_PAGE) : undefined;
const pageEncoding = process.env.BARE_PAGE_ENCODING ?? "identity";
const dbPath = process.env.DATABASE_PATH ?? "";
const holdMs = 30 * 60_000;
const LONGEST_SESSION_MS = BOOKING_LIMITS.maxHours * 60 * 60_000;

const sqlite = new Database(dbPath);
sqlite.pragma("journal_mode = wal");
sqlite.pragma("synchronous = 2");
sqlite.pragma("foreign_keys = 1");
sqlite.pragma("busy_timeout = 5000");

/** The statements of app/models (readBusyRanges, expireHolds, the sign-in lookup, the lists). */
const sql = {
  health: sqlite.prepare("SELECT 1"),
  signIn: sqlite.prepare("SELECT user_id FROM sign_ins WHERE id = ? AND expires_at > ?"),
  user: sqlite.prepare("SELECT * FROM users WHERE id = ?"),
  busyBookings: sqlite.prepare(
    `SELECT starts_at, ends_at FROM bookings
     WHERE starts_at < ? AND ends_at > ? AND starts_at > ? AND status <> 'CANCELLED'
       AND (status <> 'PENDING_PAYMENT' OR hold_expires_at > ? OR claim IS NOT NULL)`,
  ),
  busyBlocked: sqlite.prepare(
    "SELECT starts_at, ends_at FROM blocked_times WHERE starts_at < ? AND ends_at > ?",
  ),
  expireHolds: sqlite.prepare(
    `UPDATE bookings SET status = 'CANCELLED', cancellation_reason = 'Payment not received in time',
       cancelled_at = ?, hold_expires_at = NULL
     WHERE status = 'PENDING_PAYMENT' AND hold_expires_at <= ? AND claim IS NULL RETURNING *`,
  ),
  ownBookings: sqlite.prepare(
    "SELECT * FROM bookings WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT 100",
  ),
  activeRetainer: sqlite.prepare(
    `SELECT * FROM bookings WHERE user_id = ? AND is_retainer = 1
       AND status IN ('PENDING', 'CONFIRMED', 'RECORDED', 'POST_PRODUCTION', 'COMPLETED')
       AND retainer_end_date > ? AND retainer_hours_used < retainer_total_hours AND claim IS NULL
     ORDER BY retainer_end_date LIMIT 1`,
  ),
  insertBooking: sqlite.prepare(
    `INSERT INTO bookings (user_id, first_name, last_name, business_name, phone_number, email,
       stakeholder, recording_date, recording_time, guest_count, hours_needed, starts_at, ends_at,
       hourly_rate, total_cost, original_cost, status, hold_expires_at, created_at)
     VALUES (@userId, @firstName, @lastName, @businessName, @phoneNumber, @email, 'no',
       @recordingDate, @recordingTime, @guestCount, @hoursNeeded, @startsAt, @endsAt,
       100, @totalCost, @totalCost, 'PENDING_PAYMENT', @holdExpiresAt, @now)
     RETURNING *`,
  ),
  insertHistory: sqlite.prepare(
    `INSERT INTO booking_history (booking_id, actor_user_id, from_status, to_status, note, created_at)
     VALUES (?, ?, NULL, 'PENDING_PAYMENT', 'Booked online', ?)`,
  ),
  insertOutbox: sqlite.prepare(
    `INSERT INTO email_outbox (kind, to_address, subject, html, text, booking_id)
     VALUES ('booking-received', ?, 'Booking received', ?, ?, ?)`,
  ),
};

const begin = sqlite.prepare("BEGIN IMMEDIATE");
const commit = sqlite.prepare("COMMIT");
const rollback = sqlite.prepare("ROLLBACK");

function immediate<T>(work: () => T): T {
  begin.run();
  try {
    const result = work();
    commit.run();
    return result;
  } catch (error) {
    rollback.run();
    throw error;
  }
}

function signedInUserId(req: IncomingMessage, now: number): number | undefined {
  const row = sql.signIn.get(req.headers["x-bench-sign-in"] ?? "", now) as
    | { user_id: number }
    | undefined;
  if (!row) return undefined;
  sql.user.get(row.user_id);
  return row.user_id;
}

function busyRanges(date: string, now: number) {
  const window = busyWindowFor(date, 0);
  return [
    ...sql.busyBookings.all(window.to, window.from, window.from - LONGEST_SESSION_MS, now),
    ...sql.busyBlocked.all(window.to, window.from),
  ];
}

type BookingBody = {
  firstName: string;
  lastName: string;
  businessName?: string;
  phoneNumber: string;
  email: string;
  recordingDate: string;
  recordingTime: string;
  guestCount: string;
  hoursNeeded: string;
};

function createBooking(userId: number, body: BookingBody, now: number) {
  const hours = Number(body.hoursNeeded);
  const slot = studioSession(body.recordingDate, body.recordingTime, hours);
  return immediate(() => {
    sql.expireHolds.all(now, now);
    const busy = busyRanges(body.recordingDate, now) as { starts_at: number; ends_at: number }[];
    if (busy.some((range) => range.starts_at < slot.endsAt && range.ends_at > slot.startsAt)) {
      return null;
    }
    sql.activeRetainer.get(userId, body.recordingDate);
    const booking = sql.insertBooking.get({
      ...body,
      businessName: body.businessName ?? null,
      userId,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
      totalCost: hours * 100,
      holdExpiresAt: now + holdMs,
      now,
    }) as { id: number; email: string };
    sql.insertHistory.run(booking.id, userId, now);
    sql.insertOutbox.run(booking.email, "<p>Booking received</p>", "Booking received", booking.id);
    return booking;
  });
}

function send(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(json),
  });
  res.end(json);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://bare");
  const now = Date.now();
  if (url.pathname === "/page" && page) {
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Encoding": pageEncoding,
      "Content-Length": page.byteLength,
    });
    res.end(page);
    return;
  }
  if (url.pathname === "/healthz") {
    sql.health.get();
    return send(res, 200, { status: "ok" });
  }
  if (url.pathname === "/api/availability") {
    const date = url.searchParams.get("date") ?? "";
    return send(res, 200, { date, busy: busyRanges(date, now) });
  }
  if (url.pathname === "/api/bookings" && req.method === "GET") {
    const userId = signedInUserId(req, now);
    if (userId === undefined) return send(res, 401, { message: "Unauthorized" });
    immediate(() => sql.expireHolds.all(now, now));
    return send(res, 200, sql.ownBookings.all(userId));
  }
  if (url.pathname === "/api/bookings" && req.method === "POST") {
    const userId = signedInUserId(req, now);
    if (userId === undefined) return send(res, 401, { message: "Unauthorized" });
    const booking = createBooking(userId, JSON.parse(await readBody(req)) as BookingBody, now);
    return booking ? send(res, 201, booking) : send(res, 409, { message: "Taken" });
  }
  send(res, 404, { message: "Not found" });
}

createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(error);
    send(res, 500, { message: "error" });
  });
})
  .listen(port, "127.0.0.1", () => console.log(`bare server on ${port}`))
  .on("error", (error) => {
    console.error(error);
    process.exit(1);
  });
process.on("SIGTERM", () => {
  sqlite.close();
  process.exit(0);
});
