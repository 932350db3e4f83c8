import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { users } from "#db/schema";
import { openDatabaseFile, type TestDatabase } from "#tests/factories/database";
import type { TestServer } from "#tests/setup/server";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";

/**
 * The people a test acts as, against a server started by `serverForThisFile()`: visitors,
 * customers and admins with real sessions (registered through the API, an admin promoted in
 * the database), plus a writable drizzle handle for the factories and a snapshot of every
 * table to prove a refused request wrote nothing.
 */
export type Actor = { id: number; username: string; cookie: string };
type Server = Pick<TestServer, "url" | "dbPath">;
type Json = Record<string, unknown>;

export function actorsFor(server: Server) {
  let writer: TestDatabase | undefined;
  beforeAll(() => {
    writer = openDatabaseFile(server.dbPath);
  });
  afterAll(() => {
    writer?.$client.close();
  });
  const db = () => {
    if (!writer) throw new Error("The writer opens in beforeAll");
    return writer;
  };

  async function signUp(overrides: Json = {}): Promise<Actor> {
    const payload = registrationPayload(overrides);
    const response = await fetch(`${server.url}/api/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    });
    expect(response.status).toBe(201);
    const user = (await response.json()) as { id: number };
    return { id: user.id, username: String(payload.username), cookie: cookiesFrom(response) };
  }

  async function signUpAdmin(): Promise<Actor> {
    const admin = await signUp();
    db().update(users).set({ isAdmin: true }).where(eq(users.id, admin.id)).run();
    return admin;
  }

  /**
   * Every table's content, hashed: equal snapshots mean nothing was inserted, updated or
   * deleted. Background work (the hold sweeper, the e-mail worker) can change rows on its own,
   * so tests compare snapshots taken around one request, not across a whole file. Read through
   * the driver, table by table as SQLite lists them: a table the schema does not name counts too.
   * A sign-in's last-seen time is left out: any signed-in request, refused or not, may write it
   * (about once a minute, docs/product.md "Accounts and sign-ins"); it is bookkeeping, not what was
   * asked.
   */
  let hashed: Map<string, TableHash> | undefined;
  // Each snapshot its own log, should two watch one file.
  const writes = `${WRITES}_${++snapshots}`;
  function snapshot(): Record<string, string> {
    const sqlite = db().$client;
    const tables = tableNames(sqlite);
    if (hashed === undefined || tables.join() !== [...hashed.keys()].join()) {
      hashed = sqlite.transaction(() => hashAllTables(sqlite, tables, writes)).immediate();
    } else if (sqlite.prepare(`SELECT 1 FROM ${writes} LIMIT 1`).get()) {
      const tablesNow = hashed;
      sqlite.transaction(() => rehashWrittenRows(sqlite, tablesNow, writes)).immediate();
    }
    return Object.fromEntries([...hashed].map(([name, table]) => [name, table.digest]));
  }

  return { db, signUp, signUpAdmin, snapshot };
}

/**
 * Hashing every table around each request was most of the matrix suites' time, and it grew with
 * the file. Triggers log the rows each write touches, whichever connection wrote them (the
 * server's, the factories'), and a snapshot rehashes only those rows.
 */
const WRITES = "test_row_writes";
let snapshots = 0;
type TableHash = { rows: Map<number, string>; digest: string };

function tableNames(sqlite: Database.Database): string[] {
  return (
    sqlite
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name NOT LIKE '${WRITES}%' ORDER BY name`,
      )
      .all() as { name: string }[]
  ).map((table) => table.name);
}

function hashAllTables(
  sqlite: Database.Database,
  tables: string[],
  writes: string,
): Map<string, TableHash> {
  sqlite.exec(`CREATE TABLE IF NOT EXISTS ${writes} (tbl TEXT NOT NULL, row INTEGER NOT NULL)`);
  const hashed = new Map<string, TableHash>();
  for (const name of tables) {
    for (const [event, rows] of [
      ["INSERT", ["NEW"]],
      ["UPDATE", ["OLD", "NEW"]],
      ["DELETE", ["OLD"]],
    ] as const) {
      const values = rows.map((row) => `('${name}', ${row}.rowid)`).join(", ");
      sqlite.exec(
        `CREATE TRIGGER IF NOT EXISTS "${writes}_${name}_${event}" AFTER ${event} ON "${name}" BEGIN INSERT INTO ${writes} VALUES ${values}; END`,
      );
    }
    const rows = new Map<number, string>();
    for (const row of sqlite.prepare(`SELECT rowid AS "__rowid", * FROM "${name}"`).all()) {
      const { __rowid, ...content } = row as { __rowid: number };
      rows.set(__rowid, rowHash(name, content));
    }
    hashed.set(name, { rows, digest: tableDigest(rows) });
  }
  sqlite.exec(`DELETE FROM ${writes}`);
  return hashed;
}

function rehashWrittenRows(
  sqlite: Database.Database,
  hashed: Map<string, TableHash>,
  writes: string,
) {
  const written = sqlite.prepare(`DELETE FROM ${writes} RETURNING tbl, row`).all() as {
    tbl: string;
    row: number;
  }[];
  const changed = new Set<TableHash>();
  const seen = new Set<string>();
  // No constraint on the log: an app's upsert would impose its conflict rule on the trigger.
  for (const { tbl, row } of written) {
    const table = hashed.get(tbl);
    if (!table || seen.has(`${tbl}:${row}`)) continue;
    seen.add(`${tbl}:${row}`);
    const content = sqlite.prepare(`SELECT * FROM "${tbl}" WHERE rowid = ?`).get(row);
    if (content === undefined) table.rows.delete(row);
    else table.rows.set(row, rowHash(tbl, content));
    changed.add(table);
  }
  for (const table of changed) table.digest = tableDigest(table.rows);
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const rowHash = (table: string, row: unknown) => sha256(JSON.stringify(omitLastSeen(table, row)));
const tableDigest = (rows: Map<number, string>) =>
  sha256(
    [...rows]
      .sort(([a], [b]) => a - b)
      .map(([rowid, hash]) => `${rowid}:${hash}`)
      .join("\n"),
  );

function omitLastSeen(table: string, row: unknown): unknown {
  if (table !== "sign_ins" || typeof row !== "object" || row === null) return row;
  const { last_seen_at: _lastSeen, ...rest } = row as Record<string, unknown>;
  return rest;
}
