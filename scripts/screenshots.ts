/**
 * Full-page screenshots of every page at a phone and a desktop width, for docs/screenshots/.
 *
 *   npm run build && npm run screenshots
 *
 * Starts the production server (server.js + build/) on a free port with a throwaway SQLite
 * file, fills it with the demo data of db/seed.ts when that runs (a fresh database otherwise),
 * adds a customer and an admin of its own to sign in with, shoots the pages with Debian's
 * chromium, and stops the server again.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { hash } from "@node-rs/argon2";
import { type Browser, chromium, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { CHROMIUM_LAUNCH_OPTIONS, PROJECT_ROOT } from "#tests/e2e/env";
import { collectOutput, startServer } from "#tests/setup/server";

const OUT_DIR = join(PROJECT_ROOT, "docs", "screenshots");
const WIDTHS = [390, 1280] as const;
const PASSWORD = "screenshot-password-123";
const CUSTOMER = { username: "screenshot-customer", firstName: "Maya", lastName: "Johnson" };
const ADMIN = { username: "screenshot-admin", firstName: "Studio", lastName: "Manager" };

type Shot = { name: string; path: string; as: "visitor" | "customer" | "admin" };
const SHOTS: Shot[] = [
  { name: "home", path: "/", as: "visitor" },
  { name: "auth", path: "/auth", as: "visitor" },
  { name: "register", path: "/auth?tab=register", as: "visitor" },
  { name: "not-found", path: "/no-such-page", as: "visitor" },
  { name: "dashboard", path: "/dashboard", as: "customer" },
  { name: "admin", path: "/admin", as: "admin" },
];

function log(message: string) {
  console.log(`[screenshots] ${message}`);
}

/** The demo data of db/seed.ts, if it runs; the screenshots do not depend on it. */
async function seed(databasePath: string): Promise<void> {
  if (!existsSync(join(PROJECT_ROOT, "db", "seed.ts"))) return;
  const child = spawn(process.execPath, ["--import", "tsx", "db/seed.ts"], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, DATABASE_PATH: databasePath, NODE_ENV: "development" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code === 0) log("seeded the demo data");
  else log(`db/seed.ts failed (exit ${code}); continuing with a fresh database:\n${output()}`);
}

/** The accounts the screenshots sign in with, written straight into the database. */
async function addUsers(databasePath: string) {
  const sqlite = new Database(databasePath, { fileMustExist: true });
  sqlite.pragma("busy_timeout = 5000");
  const passwordHash = await hash(PASSWORD, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
  const insert = sqlite.prepare(
    `INSERT INTO users (username, password_hash, first_name, last_name, business_name,
       phone_number, email, is_stakeholder, is_admin)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  insert.run(
    CUSTOMER.username,
    passwordHash,
    CUSTOMER.firstName,
    CUSTOMER.lastName,
    "Johnson Media Co.",
    "404-555-0142",
    "maya@example.com",
    1,
    0,
  );
  insert.run(
    ADMIN.username,
    passwordHash,
    ADMIN.firstName,
    ADMIN.lastName,
    null,
    "404-555-0100",
    "staff@example.com",
    0,
    1,
  );
  sqlite.close();
}

async function signIn(page: Page, baseUrl: string, username: string) {
  await page.goto(`${baseUrl}/auth`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${baseUrl}/`);
}

/** Scrolls through the page so lazy images and media posters load, then back to the top. */
async function settle(page: Page) {
  await page.evaluate(async () => {
    const step = Math.max(200, Math.floor(window.innerHeight * 0.8));
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    window.scrollTo(0, 0);
    await document.fonts.ready;
  });
  await page.waitForLoadState("networkidle");
}

async function shoot(browser: Browser, baseUrl: string, width: number) {
  for (const role of ["visitor", "customer", "admin"] as const) {
    const context = await browser.newContext({
      viewport: { width, height: width < 768 ? 844 : 900 },
      deviceScaleFactor: 1,
      reducedMotion: "reduce",
    });
    const page = await context.newPage();
    if (role !== "visitor") {
      await signIn(page, baseUrl, role === "admin" ? ADMIN.username : CUSTOMER.username);
    }
    for (const shot of SHOTS.filter((candidate) => candidate.as === role)) {
      const response = await page.goto(`${baseUrl}${shot.path}`);
      const expected = shot.name === "not-found" ? 404 : 200;
      if (response?.status() !== expected) {
        throw new Error(`${shot.path} as ${role} answered ${response?.status()}`);
      }
      if (!page.url().endsWith(shot.path)) {
        throw new Error(`${shot.path} as ${role} ended on ${page.url()}`);
      }
      await settle(page);
      const file = join(OUT_DIR, `${shot.name}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
      log(`${shot.name}-${width}.png`);
    }
    await context.close();
  }
}

async function main() {
  if (!existsSync(join(PROJECT_ROOT, "build", "server", "index.js"))) {
    throw new Error("No production build: run `npm run build` first");
  }
  mkdirSync(OUT_DIR, { recursive: true });
  const server = await startServer();
  // localhost, not 127.0.0.1: Chromium treats it as secure, so the Secure sign-in cookie sticks.
  const baseUrl = server.url.replace("127.0.0.1", "localhost");
  let browser: Browser | undefined;
  try {
    await seed(server.dbPath);
    await addUsers(server.dbPath);
    browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
    for (const width of WIDTHS) await shoot(browser, baseUrl, width);
    log(`done: ${SHOTS.length * WIDTHS.length} screenshots in ${OUT_DIR}`);
  } finally {
    await browser?.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
