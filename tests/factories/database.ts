import Database, { type RunResult } from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as schema from "#db/schema";

/**
 * Where the factories write: the app's own `db` (unit tests), a transaction, or a handle on the
 * SQLite file of a server running in a child process (integration, e2e, reliability), which
 * the test process must open itself: `#app/db.server` opens the configured database instead.
 */
export type FactoryDb = BaseSQLiteDatabase<"sync", RunResult, typeof schema>;

/** A drizzle handle on a database file, with the driver underneath for inspection. */
export type TestDatabase = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/**
 * Opens the file a server made and migrated. busy_timeout as the app's: a write from the test
 * waits for the server's transaction rather than failing with SQLITE_BUSY.
 */
export function openDatabaseFile(path: string, options: { readonly?: boolean } = {}): TestDatabase {
  const sqlite = new Database(path, { fileMustExist: true, readonly: options.readonly ?? false });
  sqlite.pragma("busy_timeout = 5000");
  return drizzle({ client: sqlite, schema });
}

let counter = 0;
/** A tail no other row of this process has: pid, a counter and a random part. */
export function uniqueTail(): string {
  counter += 1;
  return `${process.pid}x${counter}x${Math.random().toString(36).slice(2, 7)}`;
}
