// npm run restore -- <backup file>: puts a backup (from `npm run backup`, or a file Litestream
// restored) in place of the database at DATABASE_PATH, after checking it. The site must be
// stopped. Plain erasable TypeScript with no app imports, like backup.ts, so the production
// image can run it as `node scripts/restore.ts` too.
//
// In order: refuse while a process has the database open; copy the backup beside the database;
// check the copy (integrity_check, foreign keys, the site's tables, a migration history this
// version knows), bring it to this version's migrations and end its sign-ins; print its row counts beside the
// current database's; keep the current database as `<name>.before-restore-<time>`; move the copy
// in. Nothing is replaced until every check has passed.
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";

const usage = "Usage: npm run restore -- <backup file>   (DATABASE_PATH names the database)";
const backupArgument = process.argv[2];
if (!backupArgument || backupArgument.startsWith("-")) fail(usage);

const backup = resolve(backupArgument);
const target = resolve(process.env.DATABASE_PATH || "./data/studio.db");
const migrationsFolder = resolve("db/migrations");
const staged = `${target}.restoring`;
/** The tables a backup of this site must have; their counts are what the operator compares. */
const COUNTED_TABLES = [
  "users",
  "bookings",
  "payments",
  "coupons",
  "technical_assistance_requests",
  "email_outbox",
];

function fail(message: string): never {
  console.error(`Restore failed: ${message}`);
  process.exit(1);
}

/** A check the backup did not pass: thrown, so the staged copy is removed before exiting. */
class Refused extends Error {}
function refuse(message: string): never {
  throw new Refused(message);
}

function fsyncPath(path: string) {
  const handle = openSync(path, "r");
  try {
    fsyncSync(handle);
  } finally {
    closeSync(handle);
  }
}

/**
 * Fails when another process (the site) has the database open, and folds the write-ahead log
 * into the file so that the file alone is the whole database. In WAL mode every open connection
 * holds a shared lock, so an exclusive one is granted only when nobody else has it open.
 */
function takeOverCurrentDatabase(path: string) {
  const current = new Database(path, { fileMustExist: true });
  try {
    current.pragma("busy_timeout = 0");
    current.pragma("locking_mode = EXCLUSIVE");
    current.exec("BEGIN EXCLUSIVE");
    current.exec("COMMIT");
    current.pragma("wal_checkpoint(TRUNCATE)");
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") {
      fail(`${path} is in use: stop the site first (on Fly: fly machine stop), then restore.`);
    }
    throw error;
  } finally {
    current.close();
  }
}

type Journal = { entries: { tag: string; when: number }[] };

/** Checks the copy and brings it to this version's migrations; returns what it found. */
function checkAndMigrate(path: string) {
  const copy = new Database(path, { fileMustExist: true });
  try {
    copy.pragma("foreign_keys = ON");
    const verdict = (
      copy.pragma("integrity_check", { simple: false }) as { integrity_check: string }[]
    )
      .map((row) => row.integrity_check)
      .join("; ");
    if (verdict !== "ok") refuse(`the backup failed PRAGMA integrity_check (${verdict})`);
    const orphans = copy.pragma("foreign_key_check") as unknown[];
    if (orphans.length > 0)
      refuse(`the backup has ${orphans.length} rows whose foreign key points nowhere`);

    const tables = new Set(
      copy.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[],
    );
    const missing = ["__drizzle_migrations", ...COUNTED_TABLES].filter((name) => !tables.has(name));
    if (missing.length > 0) {
      refuse(`the file is not a backup of this site (no ${missing.join(", ")} table)`);
    }

    const journal = JSON.parse(
      readFileSync(resolve(migrationsFolder, "meta/_journal.json"), "utf8"),
    ) as Journal;
    const known = new Map(journal.entries.map((entry) => [entry.when, entry.tag]));
    const applied = copy
      .prepare("SELECT created_at FROM __drizzle_migrations ORDER BY created_at")
      .pluck()
      .all() as number[];
    const unknown = applied.filter((when) => !known.has(Number(when)));
    if (unknown.length > 0) {
      refuse(
        `the backup has ${unknown.length} migration(s) this version of the site does not know: ` +
          "it was made by a newer version; restore it with that version.",
      );
    }
    // As the app migrates (app/db.server.ts migrateChecked): a rebuilt table needs them off.
    copy.pragma("foreign_keys = OFF");
    migrate(drizzle({ client: copy }), { migrationsFolder });
    if ((copy.pragma("foreign_key_check") as unknown[]).length > 0) {
      refuse("foreign_key_check found broken references after migrating");
    }
    const nowApplied = copy
      .prepare("SELECT count(*) FROM __drizzle_migrations")
      .pluck()
      .get() as number;
    if (nowApplied !== journal.entries.length) {
      refuse(
        `the backup has ${nowApplied} of ${journal.entries.length} migrations after migrating`,
      );
    }
    const afterMigrations = (copy.pragma("integrity_check", { simple: true }) as string) ?? "";
    if (afterMigrations !== "ok") refuse(`integrity_check after migrating said ${afterMigrations}`);
    // Every sign-in of the backup ends (docs/product.md "Accounts and sign-ins"): one signed out
    // or revoked since the backup was taken must not come back with it.
    const signInsEnded = copy.prepare("DELETE FROM sign_ins").run().changes;
    return {
      signInsEnded,
      migrationsApplied: journal.entries.length - applied.length,
      migrationsTotal: journal.entries.length,
      counts: rowCounts(copy),
    };
  } finally {
    copy.close();
  }
}

function rowCounts(db: Database.Database): Record<string, number> {
  return Object.fromEntries(
    COUNTED_TABLES.map((name) => [
      name,
      db.prepare(`SELECT count(*) FROM "${name}"`).pluck().get() as number,
    ]),
  );
}

function currentCounts(path: string): Record<string, number> | null {
  try {
    const current = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return rowCounts(current);
    } finally {
      current.close();
    }
  } catch {
    return null; // Damaged or from before these tables: nothing to compare with.
  }
}

if (!existsSync(backup)) fail(`no file at ${backup}`);
if (backup === target) fail("the backup is the database itself; name a backup file");
const hadDatabase = existsSync(target);
if (hadDatabase) takeOverCurrentDatabase(target);

rmSync(staged, { force: true });
copyFileSync(backup, staged);
let checked: ReturnType<typeof checkAndMigrate>;
try {
  checked = checkAndMigrate(staged);
} catch (error) {
  rmSync(staged, { force: true });
  for (const suffix of ["-wal", "-shm"]) rmSync(staged + suffix, { force: true });
  if (error instanceof Refused) fail(error.message);
  fail(`the backup could not be read (${error instanceof Error ? error.message : String(error)})`);
}
fsyncPath(staged);

const before = hadDatabase ? currentCounts(target) : null;
console.log(`Backup ${backup} checked: integrity_check ok, foreign keys ok,`);
console.log(
  `  migrations ${checked.migrationsTotal - checked.migrationsApplied} of ${checked.migrationsTotal}` +
    (checked.migrationsApplied > 0 ? ` (${checked.migrationsApplied} applied now)` : ""),
);
console.log(`  ${"table".padEnd(30)} ${"backup".padStart(10)} ${"current".padStart(10)}`);
for (const [table, rows] of Object.entries(checked.counts)) {
  const now = before ? String(before[table] ?? "-") : "-";
  console.log(`  ${table.padEnd(30)} ${String(rows).padStart(10)} ${now.padStart(10)}`);
}
console.log(`  ${checked.signInsEnded} sign-in(s) of the backup ended: everyone signs in again.`);

if (hadDatabase) {
  const stamp = new Date()
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
  const kept = `${target}.before-restore-${stamp}`;
  renameSync(target, kept);
  // The checkpoint emptied the log; whatever is left belongs with the file it came from.
  for (const suffix of ["-wal", "-shm"]) {
    if (existsSync(target + suffix)) renameSync(target + suffix, kept + suffix);
  }
  console.log(`The database it replaces is kept as ${kept}`);
}
renameSync(staged, target);
fsyncPath(dirname(target));
console.log(`Restored to ${target}. Start the site.`);
