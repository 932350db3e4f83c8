import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { describe, expect, it } from "vitest";
import { currentCode, TEST_TOTP_SECRET } from "#tests/factories/two-factor";

/**
 * Migration 0013 and the start's conversion (app/db.server.ts protectSecretsAtRest) on a
 * database as the site left it before: the database file this test process opens is first
 * built at migration 0012 with a sign-in cookie, a TOTP secret and a calendar feed token stored
 * as they were, and only then does the app open (and migrate) it. What worked before still
 * works, and the file keeps none of the three.
 */
const BEFORE_SECRETS = 13; // migrations 0000-0012
const path = process.env.DATABASE_PATH ?? "";
const cookie = randomBytes(32).toString("base64url");
const feedToken = randomBytes(32).toString("base64url");

function buildBeforeSecrets() {
  const folder = join(mkdtempSync(join(tmpdir(), "studio-migration-")), "migrations");
  cpSync("db/migrations", folder, { recursive: true });
  const journalPath = join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, BEFORE_SECRETS);
  writeFileSync(journalPath, JSON.stringify(journal));
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = wal");
  migrate(drizzle({ client: sqlite }), { migrationsFolder: folder });
  const run = (sql: string, ...params: unknown[]) => sqlite.prepare(sql).run(...params);
  run(
    "INSERT INTO users (id, username, password_hash, first_name, last_name, phone_number, email, totp_secret, totp_enabled_at) VALUES (1, 'cam', 'x', 'Cam', 'Celler', '404', 'cam@example.com', ?, 1)",
    TEST_TOTP_SECRET,
  );
  run(
    "INSERT INTO sessions (id, user_id, expires_at, last_seen_at) VALUES (?, 1, ?, ?)",
    cookie,
    Date.now() + 86_400_000,
    Date.now(),
  );
  run("INSERT INTO calendar_feeds (user_id, kind, token) VALUES (1, 'CUSTOMER', ?)", feedToken);
  sqlite.close();
}

buildBeforeSecrets();
// Opens DATABASE_PATH, which runs the migrations and the conversion.
const { getSignedIn } = await import("#app/web/sign-in.server");
const { spendSecondFactor } = await import("#app/models/two-factor.server");
const { findFeed, feedToken: shownToken } = await import("#app/models/calendar-feed.server");
const { db } = await import("#app/db.server");

describe("secrets stored before migration 0013", () => {
  it("a cookie issued before still signs in", async () => {
    const request = new Request("http://localhost/", {
      headers: { Cookie: `__session=${cookie}` },
    });
    expect(await getSignedIn(request)).toMatchObject({ userId: 1 });
  });

  it("a TOTP code of the account set up before still works", async () => {
    expect(await spendSecondFactor(1, await currentCode(TEST_TOTP_SECRET))).toBe("totp");
  });

  it("an old calendar link still works, and the profile still shows it", () => {
    expect(findFeed(feedToken)).toMatchObject({ userId: 1, kind: "CUSTOMER" });
    expect(shownToken(1, "CUSTOMER")).toBe(feedToken);
  });

  it("the database file keeps none of them as they are", () => {
    db.$client.pragma("wal_checkpoint(TRUNCATE)");
    const bytes = Buffer.concat(
      ["", "-wal"].filter((s) => existsSync(path + s)).map((s) => readFileSync(path + s)),
    );
    for (const secret of [cookie, feedToken, TEST_TOTP_SECRET]) {
      expect(bytes.includes(Buffer.from(secret)), secret).toBe(false);
    }
  });
});
