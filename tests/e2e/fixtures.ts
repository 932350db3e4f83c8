import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type axe from "axe-core";
import { test as base, expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import { count, eq, sql } from "drizzle-orm";
import { users } from "#db/schema";
import { E2E_BASE_URL, E2E_DATABASE_PATH, PROJECT_ROOT, serverEnv } from "#tests/e2e/env";
import {
  collectOutput,
  freePort,
  SERVER_NODE_FLAGS,
  stopServerProcess,
  waitUntilHealthy,
} from "#tests/setup/server";
import {
  type Coupon,
  createCoupon as insertCoupon,
  createService as insertService,
  type Service,
} from "#tests/factories/catalog";
import { openDatabaseFile, type TestDatabase } from "#tests/factories/database";
import { createSignIn, SIGN_IN_COOKIE_NAME, signInCookieValue } from "#tests/factories/sign-in";
import { enableTwoFactor } from "#tests/factories/two-factor";
import {
  ensureStudioAdmin,
  type FactoryUser,
  createUser as insertUser,
} from "#tests/factories/user";

/**
 * Shared helpers of the browser suite: users and the rest of the data written into the
 * server's SQLite file through tests/factories (fast, and independent of the journeys that
 * make them), sign-in by a sign-in row and its cookie (decision 0017), the login form for the
 * journeys about logging in, and an axe check with a readable failure message.
 */

export { PASSWORD } from "#tests/factories/user";

/** A user as the factory stored it, the password that signs in as them, and their full name. */
export type TestUser = FactoryUser & { fullName: string };

let connection: TestDatabase | undefined;

/**
 * The server's database, opened once per worker. The server made and migrated the file; it
 * is given its first admin, as create-admin gives a new deploy, so registration is open.
 */
export function db(): TestDatabase {
  if (!connection) {
    connection = openDatabaseFile(E2E_DATABASE_PATH);
    ensureStudioAdmin(connection);
  }
  return connection;
}

/** Number of accounts whose username matches (case-insensitive, like the unique index). */
export function countUsers(username: string): number {
  const row = db()
    .select({ total: count() })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .get();
  return row?.total ?? 0;
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
  options: {
    isAdmin?: boolean;
    isMember?: boolean;
    businessName?: string | null;
    firstName?: string;
    /** Admins have two-factor on unless told otherwise (the server requires it of staff). */
    twoFactor?: boolean;
  } = {},
  /** Another server's database (see `startOwnServer`). */
  database: TestDatabase = db(),
): Promise<TestUser> {
  const isAdmin = options.isAdmin ?? false;
  const username = uniqueUsername(testInfo, isAdmin ? "admin" : "cust");
  const user = await insertUser(database, {
    username,
    firstName: options.firstName ?? (isAdmin ? "Grace" : "Ada"),
    lastName: isAdmin ? "Hopper" : "Lovelace",
    businessName: options.businessName ?? null,
    email: `${username}@example.com`,
    isAdmin,
    isMember: options.isMember ?? false,
  });
  if (options.twoFactor ?? isAdmin) enableTwoFactor(db(), user.id);
  return { ...user, fullName: `${user.firstName} ${user.lastName}` };
}

/** A name nobody else in this run uses: project, worker, a counter and a random tail. */
function uniqueSuffix(testInfo: TestInfo): string {
  counter += 1;
  const project = testInfo.project.name.replace(/[^a-z]/gi, "").toUpperCase();
  const random = Math.random().toString(36).slice(2, 7).toUpperCase();
  return `${project}${testInfo.workerIndex}${counter}${random}`;
}

/** An active coupon of this test's own. value: percent, or cents for FIXED_AMOUNT. */
export function createCoupon(
  testInfo: TestInfo,
  options: { type: "PERCENTAGE" | "FIXED_AMOUNT"; value: number; maxUses?: number },
): Coupon {
  return insertCoupon(db(), {
    code: `E2E${options.value}${uniqueSuffix(testInfo)}`,
    description: `e2e ${options.type} ${options.value}`,
    ...options,
  });
}

/** An active one-hour add-on service of this test's own (price in whole dollars). */
export function createService(testInfo: TestInfo, label: string, price: number): Service {
  const name = `${label} ${uniqueSuffix(testInfo)}`;
  return insertService(db(), {
    name,
    description: `${label} for an e2e booking`,
    price,
    duration: 60,
  });
}

/**
 * Signs the browser in as `user` the way decision 0017 says tests do: a sign-in row in the
 * server's database and its `__session` cookie in the browser, as a login leaves them (with
 * two-factor on, the login proved a code: the staff gate lets an admin in).
 * The page stays where it is; the next navigation is signed in.
 */
export async function signIn(
  page: Page,
  user: Pick<TestUser, "id">,
  database: TestDatabase = db(),
) {
  const secondFactor =
    database.select({ on: users.totpEnabledAt }).from(users).where(eq(users.id, user.id)).get()
      ?.on != null;
  const row = createSignIn(database, { userId: user.id, secondFactor });
  await page.context().addCookies([
    {
      name: SIGN_IN_COOKIE_NAME,
      value: signInCookieValue(row.id),
      domain: new URL(E2E_BASE_URL).hostname,
      path: "/",
      expires: Math.floor(row.expiresAt / 1000),
      httpOnly: true,
      secure: true,
      sameSite: "Lax",
    },
  ]);
}

/** Signs in (a sign-in row, see `signIn`) and opens the landing page, as after a login. */
export async function login(page: Page, user: Pick<TestUser, "id">) {
  await signIn(page, user);
  await page.goto("/");
  await expect(accountMenu(page)).toBeVisible();
}

/**
 * Signs in through the /auth form, as a person would, and waits for the landing page: for the
 * journeys about logging in, where the form is what is tested.
 */
export async function loginThroughForm(page: Page, user: Pick<TestUser, "username" | "password">) {
  await page.goto("/auth");
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(accountMenu(page)).toBeVisible();
}

/**
 * What opens the signed-in account menu: a <details>' summary without JavaScript, Headless
 * UI's menu button once the page runs (components/account-menu.tsx).
 */
export function accountMenu(page: Page) {
  return page.getByRole("navigation", { name: "Main" }).locator("details summary, button", {
    hasText: "account menu",
  });
}

/** Opens the account menu: the open <details>, or Headless UI's menu once the page runs. */
export async function openAccountMenu(page: Page) {
  await accountMenu(page).click();
  const nav = page.getByRole("navigation", { name: "Main" });
  return nav.locator("details[open]").or(nav.getByRole("menu"));
}

/**
 * Opens the account menu and follows one of its entries: a link, or the Logout button, in the
 * <details>; a menu item of the same name in Headless UI's Menu.
 */
export async function chooseFromAccountMenu(page: Page, name: string) {
  const menu = await openAccountMenu(page);
  await menu
    .getByRole("menuitem", { name, exact: true })
    .or(menu.getByRole("link", { name, exact: true }))
    .or(menu.getByRole("button", { name, exact: true }))
    .click();
}

/**
 * A dashboard or admin tab: a link without JavaScript, Headless UI's tab once the page runs
 * (components/ui/route-tabs.tsx).
 */
export function tabLink(scope: Page | Locator, name: string) {
  return scope
    .getByRole("tab", { name, exact: true })
    .or(scope.getByRole("link", { name, exact: true }));
}

/** The one visible toast (server-rendered, so it shows with and without JavaScript). */
export function toast(page: Page) {
  return page.locator("[data-toast]");
}

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * What both checks ask of axe. Only the top document is read: the app's one frame, the e-mail
 * preview, is sandboxed without scripts, so axe could never run inside it (the frame element
 * itself is still checked, its title included).
 */
const AXE_OPTIONS: axe.RunOptions = {
  iframes: false,
  runOnly: { type: "tag", values: AXE_TAGS },
  // Passes and inapplicable rules are not read: axe skips gathering their nodes.
  resultTypes: ["violations"],
};

/**
 * The minified build: it is evaluated afresh on every page checked, and half the bytes of
 * `axe.source` take a quarter less time to evaluate.
 */
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

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
async function axeWithoutPageScripts(page: Page): Promise<axe.Result[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { frameTree } = await cdp.send("Page.getFrameTree");
    const { executionContextId: contextId } = await cdp.send("Page.createIsolatedWorld", {
      frameId: frameTree.frame.id,
      worldName: "e2e-axe",
    });
    await cdp.send("Runtime.evaluate", { expression: MICROTASK_CLOCK, contextId });
    await cdp.send("Runtime.evaluate", { expression: AXE_SOURCE, contextId });
    const options = { ...AXE_OPTIONS, preload: false };
    const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", {
      expression: `axe.run(document, ${JSON.stringify(options)})
        .then((results) => JSON.stringify(results.violations))`,
      contextId,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(`axe failed: ${JSON.stringify(exceptionDetails)}`);
    return JSON.parse(result.value as string) as axe.Result[];
  } finally {
    await cdp.detach();
  }
}

/**
 * axe in the page's own world, for the JavaScript-on project. AxeBuilder's default runs a
 * partial check in each frame and opens a blank page to merge them, which took about three
 * times as long per check, side by side on the landing page (docs/benchmarks.md, the browser
 * suite). A CDP sign-in of our own is avoided here: attaching and detaching one beside the
 * passkey journeys' virtual authenticator left its prompt unanswered.
 */
async function axeInPage(page: Page): Promise<axe.Result[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (options) => {
    const inPage = (window as unknown as { axe: typeof axe }).axe;
    return (await inPage.run(document, options)).violations;
  }, AXE_OPTIONS);
}

/** Runs axe with the WCAG 2.2 AA tag set and fails with a readable list of violations. */
export async function expectNoAxeViolations(page: Page) {
  // axe judges colours as they rest, not mid-animation: an answer fading in (the FAQ's open
  // item on load) would read as low contrast for 0.2 s. Reduced motion ends the fades at once.
  await page.emulateMedia({ reducedMotion: "reduce" });
  const run = () =>
    test.info().project.use.javaScriptEnabled === false
      ? axeWithoutPageScripts(page)
      : axeInPage(page);
  let violations = await run();
  if (violations.length > 0) {
    // Caught between two states (a navigation's scroll, a header changing colour), a page can
    // read wrong for a frame (once in a CI run: the header's white links judged against the
    // page's cream). A violation still there a moment later is one a person sees.
    await page.waitForTimeout(500);
    const first = violations.map((violation) => violation.id).join(", ");
    violations = await run();
    if (violations.length === 0) {
      console.warn(`axe: ${first} on ${page.url()} was gone when rechecked`);
    }
  }
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
  /**
   * With JavaScript on, a page loaded by `goto` or `reload` is used once it has hydrated: its
   * scripts arrive after the first paint (decision 0094), and until then a field or link works
   * as it does without JavaScript. Pages of the app only (they carry React Router's context);
   * a file, a JSON answer or a stored e-mail is used as it arrives.
   */
  page: async ({ page }, use, testInfo) => {
    // Registration journeys need the first admin to exist (db() makes it).
    db();
    if (jsOn(testInfo)) {
      const untilHydrated = async () => {
        const isAppPage = await page
          .evaluate(() => "__reactRouterContext" in window)
          .catch(() => false);
        if (isAppPage) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      };
      const goto = page.goto.bind(page);
      page.goto = async (...args) => {
        const response = await goto(...args);
        await untilHydrated();
        return response;
      };
      const reload = page.reload.bind(page);
      page.reload = async (...args) => {
        const response = await reload(...args);
        await untilHydrated();
        return response;
      };
    }
    await use(page);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their deps this way.
  customer: async ({}, use, testInfo) => {
    await use(await createUser(testInfo));
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their deps this way.
  admin: async ({}, use, testInfo) => {
    await use(await createUser(testInfo, { isAdmin: true }));
  },
});

/**
 * Holds the page's scripts (decision 0094 loads them after the first paint) until the returned
 * release is called: what a person does before the page runs, then what it does once it runs.
 */
export async function holdPageScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

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

export type OwnServer = { url: string; db: TestDatabase; stop(): Promise<void> };

/**
 * A server of the test's own, with its own database and settings (a limit low enough to reach,
 * which the suite's shared server raises for every other journey). Sign in to it with
 * `signIn(page, user, server.db)`: cookies are per host, not per port.
 */
export async function startOwnServer(settings: Record<string, string>): Promise<OwnServer> {
  const port = await freePort();
  const dbPath = join(tmpdir(), `studio-e2e-own-${randomUUID()}.db`);
  const child = spawn(process.execPath, [SERVER_NODE_FLAGS, "server.js"], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, ...serverEnv(port, dbPath), ...settings },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);
  const url = `http://localhost:${port}`;
  await waitUntilHealthy(child, `http://127.0.0.1:${port}`, output);
  const database = openDatabaseFile(dbPath);
  ensureStudioAdmin(database);
  return {
    url,
    db: database,
    async stop() {
      database.$client.close();
      await stopServerProcess(child, dbPath);
    },
  };
}
