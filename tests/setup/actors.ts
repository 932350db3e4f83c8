import { createHash } from "node:crypto";
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
  let lastSnapshot: { version: string; tables: Record<string, string> } | undefined;
  function snapshot(): Record<string, string> {
    const sqlite = db().$client;
    // Hashing every table around each request was most of the matrix suites' time. SQLite's
    // data_version moves when another connection (the server) commits, total_changes when this
    // one writes (the factories): with both still, the tables are as last hashed.
    const version = `${sqlite.pragma("data_version", { simple: true })}:${
      (sqlite.prepare("SELECT total_changes() AS n").get() as { n: number }).n
    }`;
    if (lastSnapshot?.version === version) return { ...lastSnapshot.tables };
    const tables = sqlite
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'",
      )
      .all() as { name: string }[];
    const result: Record<string, string> = {};
    for (const { name } of tables) {
      const rows = sqlite
        .prepare(`SELECT * FROM "${name}" ORDER BY rowid`)
        .all()
        .map((row) => omitLastSeen(name, row));
      result[name] = createHash("sha256").update(JSON.stringify(rows)).digest("hex");
    }
    lastSnapshot = { version, tables: result };
    return { ...result };
  }

  return { db, signUp, signUpAdmin, snapshot };
}

function omitLastSeen(table: string, row: unknown): unknown {
  if (table !== "sign_ins" || typeof row !== "object" || row === null) return row;
  const { last_seen_at: _lastSeen, ...rest } = row as Record<string, unknown>;
  return rest;
}
