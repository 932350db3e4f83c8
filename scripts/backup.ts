// npm run backup [-- <destination>]: a consistent copy of the live SQLite database, taken while
// the site keeps serving, then checked. Plain erasable TypeScript with no app imports, so the
// production image (Node 22, no tsx) can run it as `node scripts/backup.ts` too.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";

const source = resolve(process.env.DATABASE_PATH || "./data/studio.db");
const destination = resolve(process.argv[2] || defaultDestination(source, new Date()));

/** data/backups/studio-2026-11-23T05-40-12Z.db: sortable, and safe in every file system. */
function defaultDestination(database: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
  return join(dirname(database), "backups", `studio-${stamp}.db`);
}

function fail(message: string): never {
  console.error(`Backup failed: ${message}`);
  process.exit(1);
}

if (!existsSync(source)) fail(`no database at ${source} (set DATABASE_PATH)`);
if (existsSync(destination)) fail(`${destination} already exists; choose another path`);
mkdirSync(dirname(destination), { recursive: true });

// VACUUM INTO reads one snapshot inside a read transaction: in WAL mode the server keeps
// writing meanwhile, and the copy holds exactly the commits made before the snapshot.
// busy_timeout covers the moment a writer holds the lock while the read starts.
const live = new Database(source, { fileMustExist: true });
try {
  live.pragma("busy_timeout = 5000");
  live.prepare("VACUUM INTO ?").run(destination);
} catch (error) {
  rmSync(destination, { force: true });
  fail(error instanceof Error ? error.message : String(error));
} finally {
  live.close();
}

// SQLite does not sync the file VACUUM INTO writes; a backup that a power cut can tear is none.
const handle = openSync(destination, "r");
fsyncSync(handle);
closeSync(handle);

const copy = new Database(destination, { readonly: true, fileMustExist: true });
const problems = copy.pragma("integrity_check", { simple: false }) as { integrity_check: string }[];
const tables = copy
  .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
  .pluck()
  .all() as string[];
const bookings = tables.includes("bookings")
  ? (copy.prepare("SELECT count(*) FROM bookings").pluck().get() as number)
  : 0;
copy.close();
const verdict = problems.map((row) => row.integrity_check).join("; ");
if (verdict !== "ok") {
  rmSync(destination, { force: true });
  fail(`the copy failed PRAGMA integrity_check (${verdict}); it was removed`);
}

const megabytes = (statSync(destination).size / 1024 / 1024).toFixed(1);
console.log(
  `Backup written and verified (integrity_check ok, ${tables.length} tables, ${bookings} bookings, ${megabytes} MB):`,
);
console.log(destination);
