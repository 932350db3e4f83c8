import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TEST_DATA_ENCRYPTION_KEY } from "#tests/setup/data-key";

/**
 * Settings shared by playwright.config.ts and the fixtures: the production server the suite
 * starts, and the SQLite file the fixtures write users into.
 */
/** Overridable, so two checkouts (worktrees) on one machine can run their suites at once. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
/** localhost, not 127.0.0.1: Chromium treats localhost as secure, so Secure cookies stick. */
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
/** The project root, wherever the suite is started from. */
export const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The server's database; the fixtures write users into the same file. */
export const E2E_DATABASE_PATH = join(PROJECT_ROOT, "data", "e2e.db");

/** The server's SESSION_SECRET: the fixtures sign cookies with it. */
export const E2E_SESSION_SECRET = "e2e-only-session-secret-0123456789abcdefghij";

/**
 * Wrong passwords per username before logins for it wait: low enough for login.spec.ts to meet
 * the wait in a few tries; no other journey gets one user's password wrong more than once.
 */
export const E2E_LOGIN_ACCOUNT_LIMIT = 3;

/** Above what any journey books for one customer; booking.spec.ts seeds this many to reach it. */
export const E2E_MAX_UNPAID_HOLDS = 50;
/** Far enough for every journey's dates; the date pickers' max shows it. */
export const E2E_BOOKING_HORIZON_DAYS = 36500;

/** The environment of `node server.js` under test (and of scripts/screenshots.ts). */
export function serverEnv(port: number, databasePath: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    // Far from the studio's zone on purpose: studio times must not depend on the server's.
    TZ: "Pacific/Auckland",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_PATH: databasePath,
    SESSION_SECRET: E2E_SESSION_SECRET,
    DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
    PAYMENT_PROVIDER: "sandbox",
    // Off: two checkouts' suites may run at once, and 9091 is one port.
    METRICS_PORT: "0",
    // Playwright prints the server's output: warnings and errors, not a line per request.
    LOG_LEVEL: "warn",
    LOGIN_RATE_LIMIT: "1000",
    LOGIN_ACCOUNT_LIMIT: String(E2E_LOGIN_ACCOUNT_LIMIT),
    REGISTER_RATE_LIMIT: "1000",
    COUPON_LOOKUP_LIMIT: "1000",
    TWO_FACTOR_CODE_LIMIT: "1000",
    // As in production: staff must have two-factor on. The fixtures' admins have it on
    // (fixtures.ts createUser); two-factor.spec.ts makes one without it to see the gate.
    REQUIRE_STAFF_2FA: "true",
    // Suites book and reschedule many sessions from one address; the limit has its own tests.
    BOOKING_RATE_LIMIT: "100000",
    PAYMENT_STATUS_LIMIT: "100000",
    // Suites that book many sessions for one customer, years ahead; tests of these limits set their own.
    MAX_UNPAID_HOLDS: String(E2E_MAX_UNPAID_HOLDS),
    MAX_UNPAID_SESSIONS: "1000",
    BOOKING_HORIZON_DAYS: String(E2E_BOOKING_HORIZON_DAYS),
  };
}

/** Debian's chromium flags: the ones that keep it off the (closed) network. */
export const CHROMIUM_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Features off in the browser Playwright drives. New headless mode builds a whole window per
 * page, and each window preloads its address bar's popup as a second renderer (WebUIOmnibox*):
 * a third of each new page's time, and CPU the journeys compete with. Chromium keeps only the
 * last --disable-features it is given, so Playwright's own list (1.65, less
 * its Edge-only entries) is repeated here.
 */
const DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "WebUIOmniboxPopup",
  "WebUIOmniboxAimPopup",
  "WebUIOmniboxFullPopup",
];

/** How Playwright launches Debian's chromium (scripts/screenshots.ts too). */
export const CHROMIUM_LAUNCH_OPTIONS = {
  executablePath: "/usr/bin/chromium",
  args: [...CHROMIUM_FLAGS, `--disable-features=${DISABLED_FEATURES.join(",")}`],
};
