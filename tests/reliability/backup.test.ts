import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { and, count, eq, ne, notExists } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { bookingHistory, bookings, payments } from "#db/schema";
import { openDatabaseFile, type TestDatabase } from "#tests/factories/database";
import { collectOutput } from "#tests/setup/server";
import {
  bookingCount,
  bookingStream,
  type Customer,
  databaseForThisFile,
  foreignKeyProblems,
  inspect,
  integrityCheck,
  missingBookings,
  postBooking,
  removeDatabase,
  signUp,
  slotSequence,
  tempDatabasePath,
  waitFor,
} from "#tests/reliability/support";

/**
 * docs/quality.md "Reliability": `npm run backup` makes a consistent copy (VACUUM INTO) while the
 * site is serving. Bookings keep streaming in during the backup; the copy must pass
 * integrity_check and hold every booking acknowledged before the backup started.
 */
const { dbPath, launch } = databaseForThisFile("backup-source");
const copyPath = tempDatabasePath("backup-copy");
afterAll(() => removeDatabase(copyPath));

// Enough rows that VACUUM INTO takes a while, so bookings commit while it reads.
const FILLER_BOOKINGS = 50_000;

/** Copies of the first booking, cancelled and years in the past: volume, never a conflict. */
function fillWithPastBookings(path: string, rows: number) {
  const db = openDatabaseFile(path);
  try {
    const first = db.select().from(bookings).orderBy(bookings.id).limit(1).get();
    if (!first) throw new Error("No booking to copy");
    const { id: _, ...template } = first;
    const DAY = 86_400_000;
    const copies: (typeof bookings.$inferInsert)[] = [];
    for (let n = 1; n <= rows; n += 1) {
      const back = (n + 1000) * DAY;
      copies.push({
        ...template,
        status: "CANCELLED",
        holdExpiresAt: null,
        startsAt: template.startsAt - back,
        endsAt: template.endsAt - back,
      });
    }
    // Several rows per statement, within SQLite's limit of 32,766 bound values.
    const ROWS_PER_INSERT = 500;
    db.transaction((tx) => {
      for (let start = 0; start < copies.length; start += ROWS_PER_INSERT)
        tx.insert(bookings)
          .values(copies.slice(start, start + ROWS_PER_INSERT))
          .run();
    });
  } finally {
    db.$client.close();
  }
}

/**
 * A payment and its booking's new status are written in one transaction, as are a booking and
 * its first history line: a copy holding one half without the other is not a snapshot.
 */
function halfWrittenWrites(db: TestDatabase) {
  const total = (query: { get(): { n: number } | undefined }) => query.get()?.n ?? 0;
  const paymentOf = (bookingId: typeof bookings.id) =>
    db.select().from(payments).where(eq(payments.bookingId, bookingId));
  const historyOf = (bookingId: typeof bookings.id) =>
    db.select().from(bookingHistory).where(eq(bookingHistory.bookingId, bookingId));
  return {
    paidWithoutPayment: total(
      db
        .select({ n: count() })
        .from(bookings)
        .where(and(eq(bookings.status, "PENDING"), notExists(paymentOf(bookings.id)))),
    ),
    paymentWithoutPaid: total(
      db
        .select({ n: count() })
        .from(payments)
        .innerJoin(bookings, eq(bookings.id, payments.bookingId))
        .where(ne(bookings.status, "PENDING")),
    ),
    noHistory: total(
      db
        .select({ n: count() })
        .from(bookings)
        .where(and(ne(bookings.status, "CANCELLED"), notExists(historyOf(bookings.id)))),
    ),
  };
}

function runBackup(destination: string) {
  const child = spawn("npm", ["run", "backup", "--", destination], {
    env: { ...process.env, DATABASE_PATH: dbPath },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    child.once("exit", (code) => resolve({ code, output: output() }));
  });
}

it("copies a consistent database with npm run backup while bookings stream in", async () => {
  const server = await launch();
  const customers: Customer[] = [];
  for (let i = 0; i < 4; i += 1) customers.push(await signUp(server.url));

  const nextSlot = slotSequence();
  const first = customers[0] as Customer;
  const template = await postBooking(server.url, first, nextSlot());
  expect(template.status).toBe(201);
  fillWithPastBookings(dbPath, FILLER_BOOKINGS);

  const stream = bookingStream(server.url, customers, nextSlot, { workers: 6, pay: true });
  await waitFor(() => stream.payments.length >= 50, "bookings before the backup");
  const ackedBefore = [...stream.bookings];
  const backup = await runBackup(copyPath);
  const ackedDuring = stream.bookings.length - ackedBefore.length;
  await stream.stop();

  expect(backup.output).not.toMatch(/Backup failed/);
  expect(backup.code).toBe(0);
  expect(backup.output).toContain(copyPath);
  expect(existsSync(copyPath)).toBe(true);
  const copy = inspect(copyPath, (db) => ({
    integrity: integrityCheck(db),
    foreignKeyProblems: foreignKeyProblems(db),
    missing: missingBookings(db, ackedBefore),
    halfWritten: halfWrittenWrites(db),
    rows: bookingCount(db),
  }));
  console.log(
    `backup under load: ${ackedBefore.length} bookings acknowledged before the backup, ` +
      `${ackedDuring} while it ran, ${copy.rows} in the copy, ` +
      `${stream.bookings.length} acknowledged in all, answers ${JSON.stringify(stream.statuses)}`,
  );

  expect(copy.integrity).toBe("ok");
  expect(copy.foreignKeyProblems).toEqual([]);
  expect(copy.missing).toEqual([]);
  expect(copy.halfWritten).toEqual({ paidWithoutPayment: 0, paymentWithoutPaid: 0, noHistory: 0 });
  expect(copy.rows).toBeGreaterThan(FILLER_BOOKINGS);
  // The site kept taking bookings while the copy was made: the backup did not stop it.
  expect(ackedDuring).toBeGreaterThan(0);
  expect(stream.failures()).toBe(0);
  expect(Object.keys(stream.statuses).filter((status) => status.startsWith("5"))).toEqual([]);
});
