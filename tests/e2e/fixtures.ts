import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core";
import { hash } from "@node-rs/argon2";
import { test as base, expect, type Page, type TestInfo } from "@playwright/test";
import Database from "better-sqlite3";
import { E2E_DATABASE_PATH } from "#tests/e2e/env";

/**
 * Shared helpers of the browser suite: users written straight into the server's SQLite file
 * (fast, and independent of the registration journey), a login through the real /auth form,
 * and an axe check with a readable failure message.
 */

export const PASSWORD = "correct-horse-battery";

export type TestUser = {
  id: number;
  username: string;
  password: string;
  firstName: string;
  lastName: string;
  fullName: string;
  businessName: string | null;
  email: string;
  isAdmin: boolean;
};

let connection: Database.Database | undefined;

/** The server's database, opened once per worker. The server made and migrated the file. */
export function db(): Database.Database {
  if (!connection) {
    connection = new Database(E2E_DATABASE_PATH, { fileMustExist: true });
    connection.pragma("busy_timeout = 5000");
  }
  return connection;
}

/** Number of accounts whose username matches (case-insensitive, like the unique index). */
export function countUsers(username: string): number {
  const row = db()
    .prepare("SELECT count(*) AS total FROM users WHERE lower(username) = lower(?)")
    .get(username) as { total: number };
  return row.total;
}

let hashed: Promise<string> | undefined;
/** Same parameters as the app (OWASP argon2id baseline); hashed once, reused by every user. */
function passwordHash(): Promise<string> {
  hashed ??= hash(PASSWORD, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
  return hashed;
}

let counter = 0;
/** Unique across projects, workers, runs and tests; fits the 3..50 [A-Za-z0-9._-] rule. */
export function uniqueUsername(testInfo: TestInfo, prefix = "u"): string {
  counter += 1;
  const project = testInfo.project.name.replace(/[^a-z]/gi, "");
  const random = Math.random().toString(36).slice(2, 8);
  return `${prefix}_${project}_w${testInfo.workerIndex}_${counter}_${random}`;
}

export async function createUser(
  testInfo: TestInfo,
  options: { isAdmin?: boolean; businessName?: string | null; firstName?: string } = {},
): Promise<TestUser> {
  const isAdmin = options.isAdmin ?? false;
  const username = uniqueUsername(testInfo, isAdmin ? "admin" : "cust");
  const firstName = options.firstName ?? (isAdmin ? "Grace" : "Ada");
  const lastName = isAdmin ? "Hopper" : "Lovelace";
  const businessName = options.businessName === undefined ? null : options.businessName;
  const email = `${username}@example.com`;
  const result = db()
    .prepare(
      `INSERT INTO users (username, password_hash, first_name, last_name, business_name,
         phone_number, email, is_stakeholder, is_admin)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    )
    .run(
      username,
      await passwordHash(),
      firstName,
      lastName,
      businessName,
      "404-555-0100",
      email,
      isAdmin ? 1 : 0,
    );
  return {
    id: Number(result.lastInsertRowid),
    username,
    password: PASSWORD,
    firstName,
    lastName,
    fullName: `${firstName} ${lastName}`,
    businessName,
    email,
    isAdmin,
  };
}

/** A name nobody else in this run uses: project, worker, a counter and a random tail. */
function uniqueSuffix(testInfo: TestInfo): string {
  counter += 1;
  const project = testInfo.project.name.replace(/[^a-z]/gi, "").toUpperCase();
  const random = Math.random().toString(36).slice(2, 7).toUpperCase();
  return `${project}${testInfo.workerIndex}${counter}${random}`;
}

export type TestCoupon = { id: number; code: string };

/** An active coupon written straight into SQLite. value: percent, or cents for FIXED_AMOUNT. */
export function createCoupon(
  testInfo: TestInfo,
  options: { type: "PERCENTAGE" | "FIXED_AMOUNT"; value: number; maxUses?: number },
): TestCoupon {
  const code = `E2E${options.value}${uniqueSuffix(testInfo)}`;
  const result = db()
    .prepare(
      `INSERT INTO coupons (code, description, type, value, max_uses, current_uses, expiry_date,
         is_active)
       VALUES (?, ?, ?, ?, ?, 0, '2099-12-31', 1)`,
    )
    .run(
      code,
      `e2e ${options.type} ${options.value}`,
      options.type,
      options.value,
      options.maxUses ?? 0,
    );
  return { id: Number(result.lastInsertRowid), code };
}

export type TestService = { id: number; name: string; price: number };

/** An active add-on service written straight into SQLite (price in whole dollars). */
export function createService(testInfo: TestInfo, label: string, price: number): TestService {
  const name = `${label} ${uniqueSuffix(testInfo)}`;
  const result = db()
    .prepare(
      "INSERT INTO services (name, description, price, duration, is_active) VALUES (?, ?, ?, 60, 1)",
    )
    .run(name, `${label} for an e2e booking`, price);
  return { id: Number(result.lastInsertRowid), name, price };
}

/** Signs in through the /auth form, as a person would, and waits for the landing page. */
export async function login(page: Page, user: Pick<TestUser, "username" | "password">) {
  await page.goto("/auth");
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(accountMenu(page)).toBeVisible();
}

/** The summary that opens the signed-in account menu (a <details>). */
export function accountMenu(page: Page) {
  return page.getByRole("navigation", { name: "Main" }).locator("details summary", {
    hasText: "account menu",
  });
}

/** The one visible toast (server-rendered, so it shows with and without JavaScript). */
export function toast(page: Page) {
  return page.locator("[data-toast]");
}

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

type AxeViolation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

/**
 * A stand-in for setTimeout in a world where timers never fire: with JavaScript disabled
 * Chromium runs no timer tasks, yet axe defers its steps with setTimeout. Timers run in due
 * order on the microtask queue, so axe's deferrals still run in the order it expects.
 */
const MICROTASK_CLOCK = `(() => {
  let now = 0, seq = 0, scheduled = false;
  const timers = new Map();
  const schedule = () => { if (!scheduled) { scheduled = true; queueMicrotask(run); } };
  const run = () => {
    scheduled = false;
    let next;
    for (const timer of timers.values()) if (!next || timer.due < next.due) next = timer;
    if (!next) return;
    timers.delete(next.id);
    now = next.due;
    schedule();
    next.fn(...next.args);
  };
  globalThis.setTimeout = (fn, ms, ...args) => {
    const id = ++seq;
    timers.set(id, { id, due: now + (Number(ms) || 0), fn, args });
    schedule();
    return id;
  };
  globalThis.clearTimeout = (id) => { timers.delete(id); };
})();`;

/**
 * axe in an isolated world over CDP, for the JavaScript-off project. AxeBuilder needs the
 * page's own JavaScript world (page.evaluate), which does not exist when scripts are disabled;
 * an isolated world, like Playwright's own locator engine, still runs. The page stays exactly
 * as a visitor without JavaScript gets it. preload is off: it only fetches CSS for one rule
 * (css-orientation-lock) and its guard timer would fire early under the clock above.
 */
async function axeWithoutPageScripts(page: Page): Promise<AxeViolation[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { frameTree } = await cdp.send("Page.getFrameTree");
    const { executionContextId: contextId } = await cdp.send("Page.createIsolatedWorld", {
      frameId: frameTree.frame.id,
      worldName: "e2e-axe",
    });
    await cdp.send("Runtime.evaluate", { expression: MICROTASK_CLOCK, contextId });
    await cdp.send("Runtime.evaluate", { expression: axe.source, contextId });
    const options = { preload: false, runOnly: { type: "tag", values: AXE_TAGS } };
    const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", {
      expression: `axe.run(document, ${JSON.stringify(options)})
        .then((results) => JSON.stringify(results.violations))`,
      contextId,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(`axe failed: ${JSON.stringify(exceptionDetails)}`);
    return JSON.parse(result.value as string) as AxeViolation[];
  } finally {
    await cdp.detach();
  }
}

/** Runs axe with the WCAG 2.2 AA tag set and fails with a readable list of violations. */
export async function expectNoAxeViolations(page: Page) {
  // axe judges colours as they rest, not mid-animation: an answer fading in (the FAQ's open
  // item on load) would read as low contrast for 0.2 s. Reduced motion ends the fades at once.
  await page.emulateMedia({ reducedMotion: "reduce" });
  const violations =
    test.info().project.use.javaScriptEnabled === false
      ? await axeWithoutPageScripts(page)
      : (await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()).violations;
  const summary = violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => ({
      target: node.target.join(" "),
      why: node.failureSummary?.replace(/\s+/g, " ").trim(),
    })),
  }));
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

type Fixtures = {
  /** A fresh customer without a business name. */
  customer: TestUser;
  /** A fresh admin. */
  admin: TestUser;
};

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their deps this way.
  customer: async ({}, use, testInfo) => {
    await use(await createUser(testInfo));
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their deps this way.
  admin: async ({}, use, testInfo) => {
    await use(await createUser(testInfo, { isAdmin: true }));
  },
});

/** Whether the test runs in the JavaScript-on project. */
export function jsOn(testInfo: TestInfo = test.info()): boolean {
  return testInfo.project.use.javaScriptEnabled !== false;
}

/** yyyy-MM-dd plus whole days, in plain calendar arithmetic. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number);
  return new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, (day ?? 1) + days))
    .toISOString()
    .slice(0, 10);
}

/** Today in the studio's zone (Atlanta), yyyy-MM-dd. */
export function studioToday(): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
}

export { expect };
