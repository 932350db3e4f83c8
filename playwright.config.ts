import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";
import {
  CHROMIUM_LAUNCH_OPTIONS,
  E2E_BASE_URL,
  E2E_DATABASE_PATH,
  E2E_PORT,
  PROJECT_ROOT,
  serverEnv,
} from "./tests/e2e/env";
import { SERVER_NODE_FLAGS } from "./tests/setup/server";

/**
 * The production server on a snapshot of build/: a `npm run build` elsewhere in this checkout
 * while the suite runs (a dev rebuilding, another suite) would otherwise delete the assets the
 * pages under test point at. server.js, the migrations and node_modules come along. The
 * database starts empty on every run; the server applies the migrations at start.
 */
function serverCommand(): string {
  const snapshot = join(tmpdir(), `studio-e2e-build-${E2E_PORT}`);
  const fromRoot = (...names: string[]) => names.map((name) => `'${join(PROJECT_ROOT, name)}'`);
  const database = E2E_DATABASE_PATH;
  return [
    `rm -rf '${snapshot}' '${database}' '${database}-wal' '${database}-shm'`,
    `mkdir -p '${snapshot}'`,
    `cp -R ${fromRoot("build", "server.js", "package.json").join(" ")} '${snapshot}/'`,
    `ln -s ${fromRoot("node_modules", "db").join(" ")} '${snapshot}/'`,
    `cd '${snapshot}'`,
    `exec node ${SERVER_NODE_FLAGS} server.js`,
  ].join(" && ");
}

/**
 * Browser journeys against the production build (`npm run test:e2e` builds first), each run
 * twice: with JavaScript on and with JavaScript off (docs/product.md
 * "Accessibility and no-JavaScript": every journey works without it).
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Two cores: the server, argon2 hashing and two browsers already keep both busy.
  workers: 2,
  reporter: "list",
  // A guard against a hung journey, not a speed check: the longest journeys take 20-36 s on
  // CI's two cores, and a loaded machine pushed one past 30 s.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  use: {
    ...devices["Desktop Chrome"],
    baseURL: E2E_BASE_URL,
    // Nor on the browser's: a customer in California books Atlanta wall time.
    timezoneId: "America/Los_Angeles",
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
    // CI keeps the log of a failed run, not its files: a trace of every journey there would
    // cost CPU for artefacts nobody can open.
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
  },
  // A journey that exists only with JavaScript (a passkey's prompt) or only without it is
  // tagged, and belongs to that project alone rather than being skipped in the other.
  projects: [
    { name: "js-on", use: { javaScriptEnabled: true }, grepInvert: /@js-off-only/ },
    { name: "js-off", use: { javaScriptEnabled: false }, grepInvert: /@js-on-only/ },
  ],
  webServer: {
    command: serverCommand(),
    url: `http://127.0.0.1:${E2E_PORT}/healthz`,
    env: serverEnv(E2E_PORT, E2E_DATABASE_PATH),
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
