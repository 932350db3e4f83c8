import { spawn } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
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
  missingPayments,
  removeDatabase,
  signUp,
  slotSequence,
  tempDatabasePath,
  waitFor,
} from "#tests/reliability/support";

/**
 * The restore drill of docs/deploy.md: bookings and payments stream in, `npm run backup` copies
 * the database, the machine is lost (the server killed, the file gone), `npm run restore` puts
 * the backup back, and the restarted site holds every booking and payment acknowledged before
 * the backup, for the customers who made them. And what restore refuses, changing nothing.
 */
const { dbPath, launch } = databaseForThisFile("restore-drill", "SIGKILL");
const copyPath = tempDatabasePath("restore-copy");
const scratch: string[] = [copyPath];
afterAll(() => {
  for (const path of scratch) removeDatabase(path);
  // The databases restore set aside, named after the database.
  for (const name of readdirSync(dirname(dbPath))) {
    if (name.startsWith(`${basename(dbPath)}.`)) removeDatabase(`${dirname(dbPath)}/${name}`);
  }
});

function runScript(script: "backup" | "restore", file: string, database = dbPath) {
  const child = spawn("npm", ["run", "--silent", script, "--", file], {
    env: { ...process.env, DATABASE_PATH: database },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    child.once("exit", (code) => resolve({ code, output: output() }));
  });
}

/** Signs in with the customer's password: the sign-in cookie of the new sign-in. */
async function signIn(url: string, customer: Customer): Promise<string> {
  const response = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: customer.username, password: customer.password }),
  });
  expect(response.status).toBe(200);
  return (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
}

async function bookingsOf(url: string, customer: Customer): Promise<number[]> {
  const response = await fetch(`${url}/api/bookings`, { headers: { Cookie: customer.cookie } });
  expect(response.status).toBe(200);
  const list = (await response.json()) as { id: number }[];
  return list.map((booking) => booking.id);
}

describe("the restore drill", () => {
  it("brings back every booking and payment acknowledged before the backup", async () => {
    const server = await launch();
    const customers: Customer[] = [];
    for (let i = 0; i < 3; i += 1) customers.push(await signUp(server.url));
    const stream = bookingStream(server.url, customers, slotSequence(), { workers: 4, pay: true });
    await waitFor(() => stream.payments.length >= 30, "payments before the backup");
    const bookingsBefore = [...stream.bookings];
    const paymentsBefore = [...stream.payments];
    const backup = await runScript("backup", copyPath);
    expect(backup.output).not.toMatch(/Backup failed/);
    expect(backup.code).toBe(0);
    // The site goes on taking bookings after the backup, then the machine is lost.
    await waitFor(() => stream.bookings.length > bookingsBefore.length + 5, "later bookings");
    await stream.stop();
    await server.kill("SIGKILL");
    removeDatabase(dbPath);

    const restore = await runScript("restore", copyPath);
    expect(restore.output).not.toMatch(/Restore failed/);
    expect(restore.code).toBe(0);
    expect(restore.output).toMatch(/integrity_check ok/);
    expect(restore.output).toMatch(/migrations (\d+) of \1/);
    expect(restore.output).toContain(`Restored to ${dbPath}`);

    const found = inspect(dbPath, (db) => ({
      integrity: integrityCheck(db),
      foreignKeyProblems: foreignKeyProblems(db),
      missingBookings: missingBookings(db, bookingsBefore),
      missingPayments: missingPayments(db, paymentsBefore),
      rows: bookingCount(db),
    }));
    console.log(
      `restore drill: ${bookingsBefore.length} bookings and ${paymentsBefore.length} payments ` +
        `acknowledged before the backup, ${stream.bookings.length} bookings in all; ` +
        `${found.rows} bookings restored`,
    );
    expect(found.integrity).toBe("ok");
    expect(found.foreignKeyProblems).toEqual([]);
    expect(found.missingBookings).toEqual([]);
    expect(found.missingPayments).toEqual([]);

    // Restore ended every sign-in of the backup (one revoked since must not come back): the
    // site starts on the restored file, the cookies of before sign in no more, and customers who
    // sign in again find their bookings.
    expect(restore.output).toMatch(/\d+ sign-in\(s\) of the backup ended/);
    expect(
      inspect(dbPath, (db) => db.$client.prepare("SELECT count(*) FROM sign_ins").pluck().get()),
    ).toBe(0);
    const restarted = await launch();
    for (const customer of customers) {
      const before = await fetch(`${restarted.url}/api/bookings`, {
        headers: { Cookie: customer.cookie },
      });
      expect(before.status).toBe(401);
      const theirs = bookingsBefore.filter((booking) => booking.userId === customer.id);
      const again = { ...customer, cookie: await signIn(restarted.url, customer) };
      expect(await bookingsOf(restarted.url, again)).toEqual(
        expect.arrayContaining(theirs.map((booking) => booking.id)),
      );
    }
    await restarted.kill("SIGTERM");
  });

  it("refuses while the site has the database open, and changes nothing", async () => {
    const server = await launch();
    const customer = await signUp(server.url);
    const before = await bookingsOf(server.url, customer);

    const refused = await runScript("restore", copyPath);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/Restore failed: .* is in use: stop the site first/);
    expect(existsSync(`${dbPath}.restoring`)).toBe(false);
    // The signed-up customer is still there: the file was not replaced.
    expect(await bookingsOf(server.url, customer)).toEqual(before);
    await server.kill("SIGTERM");
  });

  it("refuses a file that is not a sound backup of this site, and changes nothing", async () => {
    const usersNow = () =>
      inspect(dbPath, (db) => db.$client.prepare("SELECT count(*) FROM users").pluck().get());
    const users = usersNow();

    const garbage = tempDatabasePath("restore-garbage");
    scratch.push(garbage);
    writeFileSync(garbage, "SQLite format 3\0 but then not a database at all".repeat(200));
    const notADatabase = await runScript("restore", garbage);
    expect(notADatabase.code).toBe(1);
    expect(notADatabase.output).toMatch(/Restore failed: /);

    const emptyDatabase = tempDatabasePath("restore-empty");
    scratch.push(emptyDatabase);
    inspectWritable(emptyDatabase, (sql) => sql.exec("CREATE TABLE notes (body TEXT)"));
    const foreign = await runScript("restore", emptyDatabase);
    expect(foreign.code).toBe(1);
    expect(foreign.output).toMatch(/Restore failed: the file is not a backup of this site/);

    const newer = tempDatabasePath("restore-newer");
    scratch.push(newer);
    copyFileSync(copyPath, newer);
    inspectWritable(newer, (sql) =>
      sql.exec(
        "INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('from-the-future', 9999999999999)",
      ),
    );
    const fromNewerVersion = await runScript("restore", newer);
    expect(fromNewerVersion.code).toBe(1);
    expect(fromNewerVersion.output).toMatch(/made by a newer version/);

    const missingFile = await runScript("restore", `${garbage}.nowhere`);
    expect(missingFile.code).toBe(1);
    expect(missingFile.output).toMatch(/Restore failed: no file at/);

    expect(usersNow()).toBe(users);
    expect(existsSync(`${dbPath}.restoring`)).toBe(false);
  });
});

function inspectWritable(path: string, use: (sql: Database.Database) => void) {
  const db = new Database(path);
  try {
    use(db);
  } finally {
    db.close();
  }
}
