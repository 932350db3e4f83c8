import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "../db/schema";
import { env } from "./services/env.server";

export type DB = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/**
 * The pragmas money needs. WAL lets readers run beside the single writer; synchronous=FULL
 * makes an acknowledged commit survive a power cut (NORMAL may lose the last ones in WAL mode);
 * busy_timeout makes a second writer (another process, a backup) wait instead of failing.
 */
const PRAGMAS = {
  journal_mode: "wal",
  synchronous: 2, // FULL
  foreign_keys: 1,
  busy_timeout: 5000,
} as const;

export function openDatabase(path: string): DB {
  if (path !== ":memory:") mkdirSync(dirname(resolve(path)), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma(`journal_mode = ${PRAGMAS.journal_mode}`);
  sqlite.pragma(`synchronous = ${PRAGMAS.synchronous}`);
  sqlite.pragma(`foreign_keys = ${PRAGMAS.foreign_keys}`);
  sqlite.pragma(`busy_timeout = ${PRAGMAS.busy_timeout}`);
  assertPragmas(sqlite, path);
  const db = drizzle({ client: sqlite, schema });
  migrate(db, { migrationsFolder: resolve("db/migrations") });
  return db;
}

/** Fail at start, not on the first booking, if SQLite ignored a pragma. */
function assertPragmas(sqlite: Database.Database, path: string) {
  const read = (name: string) => sqlite.pragma(name, { simple: true });
  const expected: Record<string, unknown> = {
    journal_mode: path === ":memory:" ? "memory" : PRAGMAS.journal_mode,
    synchronous: PRAGMAS.synchronous,
    foreign_keys: PRAGMAS.foreign_keys,
    busy_timeout: PRAGMAS.busy_timeout,
  };
  for (const [name, value] of Object.entries(expected)) {
    const actual = read(name);
    if (actual !== value) {
      throw new Error(`SQLite pragma ${name} is ${String(actual)}, expected ${String(value)}`);
    }
  }
}

// One connection per process, kept across dev-server reloads.
const globalForDb = globalThis as unknown as { __studioDb?: DB };
export const db: DB = globalForDb.__studioDb ?? openDatabase(env.DATABASE_PATH);
globalForDb.__studioDb = db;

/** True when a write failed on a UNIQUE index (drizzle may wrap the driver's error). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ("code" in current && current.code === "SQLITE_CONSTRAINT_UNIQUE") return true;
  }
  return false;
}
