import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "#db/schema";
import { env } from "#app/env.server";
import { metrics } from "#app/metrics.server";
import {
  dataKeys,
  isSealed,
  SHA256_HEX,
  type SealingKeys,
  seal,
  sealedUnderCurrent,
  sha256Hex,
  UnsealError,
  unseal,
} from "#app/secrets.server";

export type DB = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** synchronous=FULL: an acknowledged commit survives a power cut (NORMAL may lose the last in WAL). */
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
  sqlite.pragma(`busy_timeout = ${PRAGMAS.busy_timeout}`);
  const db = drizzle({ client: sqlite, schema });
  migrateChecked(db);
  sqlite.pragma(`foreign_keys = ${PRAGMAS.foreign_keys}`);
  assertPragmas(sqlite, path);
  return db;
}

/** A migration that rebuilds a referenced table cannot run with foreign keys on; then every reference is proven. */
export function migrateChecked(database: DB) {
  database.$client.pragma("foreign_keys = OFF");
  // Rows rewritten here held secrets: their old bytes are zeroed, and the WAL emptied.
  database.$client.pragma("secure_delete = ON");
  migrate(database, { migrationsFolder: MIGRATIONS_FOLDER });
  const converted = protectSecretsAtRest(database);
  database.$client.pragma("secure_delete = OFF");
  if (converted > 0) database.$client.pragma("wal_checkpoint(TRUNCATE)");
  const broken = database.$client.pragma("foreign_key_check") as unknown[];
  if (broken.length > 0) {
    throw new Error(
      `Migrations left ${broken.length} broken references: ${JSON.stringify(broken.slice(0, 5))}`,
    );
  }
}

/** docs/product.md "Accounts and sign-ins": rows from before migration 0013 hold secrets as they are; see docs/deploy.md for key rotation. */
export function protectSecretsAtRest(database: DB, keys: SealingKeys = dataKeys): number {
  const sqlite = database.$client;
  const reseal = (purpose: "totp-secret" | "feed-token", stored: string, where: string) => {
    if (!isSealed(stored)) return seal(keys, purpose, stored);
    if (sealedUnderCurrent(keys, stored)) return stored;
    try {
      return seal(keys, purpose, unseal(keys, purpose, stored));
    } catch (error) {
      if (!(error instanceof UnsealError)) throw error;
      throw new Error(
        `${where} is sealed under a key that is neither DATA_ENCRYPTION_KEY nor DATA_ENCRYPTION_KEY_PREVIOUS (${error.message})`,
      );
    }
  };
  return sqlite
    .transaction(() => {
      let changed = 0;
      const ids = sqlite.prepare("SELECT id FROM sign_ins").pluck().all() as string[];
      const rehash = sqlite.prepare("UPDATE sign_ins SET id = ? WHERE id = ?");
      for (const id of ids) {
        if (!SHA256_HEX.test(id)) changed += rehash.run(sha256Hex(id), id).changes;
      }

      const secrets = sqlite
        .prepare("SELECT id, totp_secret AS secret FROM users WHERE totp_secret IS NOT NULL")
        .all() as { id: number; secret: string }[];
      const setSecret = sqlite.prepare("UPDATE users SET totp_secret = ? WHERE id = ?");
      for (const { id, secret } of secrets) {
        const stored = reseal("totp-secret", secret, `The TOTP secret of user ${id}`);
        if (stored !== secret) changed += setSecret.run(stored, id).changes;
      }

      const feeds = sqlite
        .prepare("SELECT id, token_hash AS hash, token_sealed AS sealed FROM calendar_feeds")
        .all() as { id: number; hash: string; sealed: string }[];
      const setFeed = sqlite.prepare(
        "UPDATE calendar_feeds SET token_hash = ?, token_sealed = ? WHERE id = ?",
      );
      for (const { id, hash, sealed } of feeds) {
        // Before 0013 the token itself was in both columns.
        const fresh = !SHA256_HEX.test(hash);
        const stored = reseal("feed-token", sealed, `The token of calendar feed ${id}`);
        if (fresh || stored !== sealed) {
          changed += setFeed.run(fresh ? sha256Hex(hash) : hash, stored, id).changes;
        }
      }
      return changed;
    })
    .immediate();
}

const MIGRATIONS_FOLDER = resolve("db/migrations");

export function migrationsBehind(database: DB): number {
  const journal = JSON.parse(
    readFileSync(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8"),
  ) as { entries: unknown[] };
  const applied = database.$client
    .prepare("SELECT count(*) FROM __drizzle_migrations")
    .pluck()
    .get() as number;
  return journal.entries.length - applied;
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

export type Tx = Parameters<Parameters<DB["transaction"]>[0]>[0];

/** The web answers it with a 503. */
export class DatabaseBusyError extends Error {
  constructor(cause: unknown) {
    super("The database stayed locked past busy_timeout", { cause });
    this.name = "DatabaseBusyError";
  }
}

function isDatabaseBusy(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ("code" in current && String(current.code).startsWith("SQLITE_BUSY")) return true;
  }
  return false;
}

/** No retry loop on purpose: SQLite's busy handler already retries for busy_timeout, and each further attempt would freeze the process. */
export function unlessBusy<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (!isDatabaseBusy(error)) throw error;
    metrics.sqliteBusy.inc();
    throw new DatabaseBusyError(error);
  }
}

/** IMMEDIATE takes the write lock before the first read, avoiding a deferred lock upgrade's instant SQLITE_BUSY. The callback must not await. */
export function writeTransaction<T>(run: (tx: Tx) => T): T {
  return unlessBusy(() => db.transaction(run, { behavior: "immediate" }));
}

/** Drizzle may wrap the driver's error. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ("code" in current && current.code === "SQLITE_CONSTRAINT_UNIQUE") return true;
  }
  return false;
}
