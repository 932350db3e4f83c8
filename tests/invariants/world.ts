import type fc from "fast-check";
import type { Booking as BookingRow, User } from "#db/schema";
import { asc, eq } from "drizzle-orm";
import { bookings, coupons, orders, services, users } from "#db/schema";
import { db } from "#app/db.server";
import { addStudioDays, studioDateOf, studioInstant } from "#app/domain/studio-time";
import { sandboxProvider } from "#app/integrations/payments/sandbox.server";
import type { BookingSettings } from "#app/workflows/book-session.server";
import type { CancellationSettings } from "#app/workflows/cancel-booking.server";
import type { WorkflowSettings } from "#app/workflows/change-booking-status.server";
import type { RescheduleSettings } from "#app/workflows/reschedule.server";
import type { WaitlistSettings } from "#app/workflows/waitlist.server";
import { FakeProvider, type ProviderMode } from "#tests/invariants/provider";

/**
 * The world one history runs in: the real SQLite file (emptied between histories), the clock
 * the commands move (Date.now is this clock while the harness runs), the fake provider and
 * its ledger, and what only the harness knows (which customers exist, which checkout pages a
 * customer was sent to, which sessions staff marked paid offline, which overlaps a blocked
 * time was created over). It is fast-check's model and its real system at once: the model is
 * read from the database, so the two cannot drift apart.
 */

/**
 * A session as the harness reads it: its row, and the weekly series it belongs to (its order's
 * id when the order is a series; null for an order of one), for grouping and for the trace.
 */
export type Booking = BookingRow & { seriesId: number | null };

export function readSessions(id?: number): Booking[] {
  return db
    .select({ row: bookings, repeatEvery: orders.repeatEvery })
    .from(bookings)
    .leftJoin(orders, eq(orders.id, bookings.orderId))
    .where(id === undefined ? undefined : eq(bookings.id, id))
    .orderBy(asc(bookings.id))
    .all()
    .map(({ row, repeatEvery }) => ({ ...row, seriesId: repeatEvery ? row.orderId : null }));
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The settings of run.ts's environment, passed explicitly where a workflow takes them. */
export const HOLD_MINUTES = 30;
export const BUFFER_MINUTES = 30;
export const FEE_PERCENT = 50;
/** Today's knob: unpaid holds (a series counts as one). */
export const MAX_UNPAID_HOLDS = 2;
/** MAX_UNPAID_SESSIONS, its default: the cap the invariant holds the app to. */
export const UNPAID_SESSION_CAP = 12;
export const MAX_WAITLIST = 5;
export const APP_URL = "https://studio.invariants.test";
/** How long an in-doubt provider refund may stay unrecorded (the sweeper's "about ten minutes"). */
export const SETTLE_WINDOW_MS = 15 * MINUTE;

/** Every history starts here: Monday 1 March 2027, 08:00 in Atlanta; DST starts on the 14th. */
export const START = studioInstant("2027-03-01", "08:00");
export const START_DATE = "2027-03-01";
export const TIMES = ["09:00", "12:00", "15:00", "19:00"] as const;

export type Customer = { id: number; label: string; email: string; stakeholder: boolean };
export type CouponFixture = { id: number; code: string; label: string };

export class InvariantViolation extends Error {
  constructor(
    readonly invariant: string,
    message: string,
    readonly trace: string[],
  ) {
    super(`[${invariant}] ${message}`);
    this.name = "InvariantViolation";
  }
}

export class World {
  now = START;
  mode: ProviderMode = "hosted";
  readonly fake: FakeProvider;
  scheduler: fc.Scheduler | null = null;
  customers: Customer[] = [];
  staff!: User;
  coupons: CouponFixture[] = [];
  serviceIds: number[] = [];
  /** Hosted checkouts whose page a customer was sent to (only those can be paid). */
  shownCheckouts: string[] = [];
  /** Sessions staff changed out of PENDING_PAYMENT with no payment recorded: paid offline. */
  offlinePaid = new Set<number>();
  /** `block:b<id>` / `block:o<id>`: live sessions and offers a blocked time was created over. */
  excused = new Set<string>();
  /** The visitor-page tables and the data version at the last check. */
  visitorData: { print: string; version: number } | null = null;
  /** When a background sweep ran with every provider call answered (no armed fault fired). */
  answeredSweeps: number[] = [];
  /** The background sweep ran last step (the waitlist must then have offered what is free). */
  justSwept = false;
  /** Errors a workflow threw that are not one of its refusals. */
  crashes: string[] = [];
  /** How often each command ended each way, over the whole run (`--stats`). */
  outcomes = new Map<string, number>();
  trace: string[] = [];
  steps = 0;
  checks = 0;
  only: Set<string> | null = null;

  constructor() {
    this.fake = new FakeProvider(
      () => this.now,
      (label) => this.gate(label),
    );
    // The card form reaches the provider through paymentProvider() (env: sandbox), which
    // returns this object: its card decision is the fake's, so the ledger sees every charge.
    (sandboxProvider as { chargeCard: typeof sandboxProvider.chargeCard }).chargeCard = (card) =>
      this.fake.card().chargeCard(card);
  }

  async gate(label: string) {
    if (this.scheduler) await this.scheduler.schedule(Promise.resolve(label), label);
  }

  /** Runs a step's work to its end, letting the scheduler release provider calls in its order. */
  async settle<T>(work: Promise<T>): Promise<T> {
    return this.scheduler ? this.scheduler.waitFor(work) : work;
  }

  // ---- settings, as the server builds them from its environment, with the fake provider

  provider() {
    return this.mode === "hosted" ? this.fake.hosted() : this.fake.card();
  }
  bookingSettings(): BookingSettings {
    return {
      holdMinutes: HOLD_MINUTES,
      bufferMinutes: BUFFER_MINUTES,
      appUrl: APP_URL,
      maxUnpaidHolds: MAX_UNPAID_HOLDS,
      maxUnpaidSessions: UNPAID_SESSION_CAP,
      horizonDays: 365,
    };
  }
  cancellationSettings(): CancellationSettings {
    return { feePercent: FEE_PERCENT, provider: this.provider() };
  }
  workflowSettings(): WorkflowSettings {
    return { ...this.cancellationSettings(), bufferMinutes: BUFFER_MINUTES, appUrl: APP_URL };
  }
  rescheduleSettings(): RescheduleSettings {
    return { bufferMinutes: BUFFER_MINUTES, appUrl: APP_URL, horizonDays: 365 };
  }
  waitlistSettings(): WaitlistSettings {
    return {
      holdMinutes: HOLD_MINUTES,
      bufferMinutes: BUFFER_MINUTES,
      appUrl: APP_URL,
      maxWaitlist: MAX_WAITLIST,
      maxUnpaidSessions: UNPAID_SESSION_CAP,
      horizonDays: 365,
    };
  }

  // ---- a history's beginning

  /** Empties every table (the migrations' bookkeeping stays) and lays out the fixtures. */
  reset(mode: ProviderMode, scheduler: fc.Scheduler | null) {
    resetDatabase();
    this.now = START;
    this.mode = mode;
    this.scheduler = scheduler;
    this.fake.reset(mode);
    this.customers = [];
    this.shownCheckouts = [];
    this.offlinePaid = new Set();
    this.excused = new Set();
    this.answeredSweeps = [];
    this.visitorData = null;
    this.justSwept = false;
    this.crashes = [];
    this.trace = [`provider: ${mode}`];
    this.staff = db
      .insert(users)
      .values({
        username: "staff",
        passwordHash: "x",
        firstName: "Sam",
        lastName: "Staff",
        phoneNumber: "404-555-0199",
        email: "staff@studio.test",
        isAdmin: true,
      })
      .returning()
      .get();
    const coupon = (
      code: string,
      type: "PERCENTAGE" | "FIXED_AMOUNT",
      value: number,
      max: number,
    ) =>
      db
        .insert(coupons)
        .values({ code, description: code, type, value, maxUses: max })
        .returning()
        .get();
    this.coupons = [
      coupon("ONCE50", "PERCENTAGE", 50, 1),
      coupon("FIXED25", "FIXED_AMOUNT", 2500, 3),
      coupon("TEN", "PERCENTAGE", 10, 0),
      coupon("FREE", "PERCENTAGE", 100, 2),
    ].map((row) => ({
      id: row.id,
      code: row.code,
      label: `${row.code} (${row.type === "PERCENTAGE" ? `${row.value}%` : `$${row.value / 100}`}, ${row.maxUses === 0 ? "unlimited" : `${row.maxUses} use${row.maxUses === 1 ? "" : "s"}`})`,
    }));
    this.serviceIds = [
      db
        .insert(services)
        .values({ name: "Editing", description: "e", price: 50 })
        .returning()
        .get(),
      db.insert(services).values({ name: "Clips", description: "c", price: 75 }).returning().get(),
    ].map((row) => row.id);
  }

  // ---- reading the world (the model is the database)

  bookings(): Booking[] {
    return readSessions();
  }
  booking(id: number): Booking | undefined {
    return readSessions(id)[0];
  }
  customer(userId: number): Customer | undefined {
    return this.customers.find((customer) => customer.id === userId);
  }

  /** The studio date `offset` days after the history's first day. */
  day(offset: number) {
    return addStudioDays(START_DATE, offset);
  }
  today() {
    return studioDateOf(this.now);
  }

  describeBooking(booking: BookingRow): string {
    const who = this.customer(booking.userId)?.label ?? `u${booking.userId}`;
    const seriesId = this.booking(booking.id)?.seriesId ?? null;
    const series = seriesId === null ? "" : ` S${seriesId}`;
    const hold =
      booking.status === "PENDING_PAYMENT" && booking.holdExpiresAt !== null
        ? ` hold ${booking.holdExpiresAt > this.now ? "live" : "expired"}`
        : "";
    return `B${booking.id}${series} (${who} ${booking.recordingDate} ${booking.recordingTime} ${booking.hoursNeeded}h $${booking.totalCost} ${booking.status}${hold})`;
  }

  log(line: string) {
    this.trace.push(line);
  }

  /** Provider calls made since the last flush, for the trace. */
  flushCalls() {
    for (const call of this.fake.calls) {
      this.trace.push(`      provider ${call.op} ${call.detail}: ${call.outcome}`);
    }
    this.fake.calls = [];
  }

  tally(command: string, outcome: string) {
    // "refused: <message>" keeps its message; other answers their first words.
    const kind = outcome.startsWith("refused")
      ? outcome.slice(0, 90)
      : outcome.replace(/[\s(:$#0-9].*$/, "");
    const key = `${command}: ${kind}`;
    this.outcomes.set(key, (this.outcomes.get(key) ?? 0) + 1);
  }

  includes(invariant: string) {
    return this.only === null || this.only.has(invariant);
  }
}

let tables: string[] | null = null;

/**
 * Empties every table but drizzle's migration journal, and restarts the AUTOINCREMENT ids, so
 * each history (and its replay) sees the same ids. Foreign keys are off meanwhile: the
 * order does not matter, and the triggers' bookkeeping tables are emptied with the rest.
 */
export function resetDatabase() {
  const client = db.$client;
  tables ??= (
    client
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations'",
      )
      .all() as { name: string }[]
  ).map((row) => row.name);
  client.pragma("foreign_keys = OFF");
  client.transaction(() => {
    for (const table of tables ?? []) client.prepare(`DELETE FROM "${table}"`).run();
    const sequence = client
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_sequence'")
      .get() as { n: number };
    if (sequence.n > 0) client.prepare("DELETE FROM sqlite_sequence").run();
  })();
  client.pragma("foreign_keys = ON");
}
