import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect } from "vitest";
import type { TestServer } from "#tests/setup/server";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";

/**
 * The people a test acts as, against a server started by `serverForThisFile()`: visitors,
 * customers and admins with real sessions (registered through the API, an admin promoted in
 * the database), plus a writable connection for seeding and a snapshot of every table's row
 * count to prove a refused request wrote nothing.
 */
export type Actor = { id: number; username: string; cookie: string };
type Server = Pick<TestServer, "url" | "dbPath">;
type Json = Record<string, unknown>;

export function actorsFor(server: Server) {
  let writer: Database.Database | undefined;
  beforeAll(() => {
    writer = new Database(server.dbPath);
    writer.pragma("busy_timeout = 5000");
  });
  afterAll(() => {
    writer?.close();
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
    db().prepare("UPDATE users SET is_admin = 1 WHERE id = ?").run(admin.id);
    return admin;
  }

  /**
   * Every table's content, hashed: equal snapshots mean nothing was inserted, updated or
   * deleted. Background work (the hold sweeper, the e-mail worker) can change rows on its own,
   * so tests compare snapshots taken around one request, not across a whole file.
   */
  function snapshot(): Record<string, string> {
    const tables = db()
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'",
      )
      .all() as { name: string }[];
    const result: Record<string, string> = {};
    for (const { name } of tables) {
      const rows = db().prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all();
      result[name] = createHash("sha256").update(JSON.stringify(rows)).digest("hex");
    }
    return result;
  }

  return { db, signUp, signUpAdmin, snapshot };
}
