import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { count } from "drizzle-orm";
import { bookings, signIns, users } from "#db/schema";
import { openDatabaseFile, type TestDatabase } from "#tests/factories/database";
import { ensureStudioAdmin } from "#tests/factories/user";
import { TEST_DATA_ENCRYPTION_KEY } from "#tests/setup/data-key";
import { inCgroups } from "#tests/setup/fly-machine";
import { LOG_DIR_VARIABLE, type ServerSecrets } from "#tests/setup/log-audit";

/**
 * Starts the real production build (server.js + build/) on a free port with its own SQLite
 * file, so integration tests go through server.js, the middleware and real cookies.
 * `npm test` builds first; run `npm run build` before running these files alone.
 */
const COUNTED = { users, signIns, bookings };

export type TestServer = {
  url: string;
  dbPath: string;
  /** The server's own FILES_DIR (session files), deleted with its database. */
  filesDir: string;
  /** A read-only drizzle handle on the server's database, to prove what was (not) written. */
  db: TestDatabase;
  /** Rows in a table, to prove a refused request wrote nothing. */
  count(table: keyof typeof COUNTED): number;
  /** Everything the server printed (to check that no stack trace or secret is logged). */
  output(): string;
  stop(): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(),
      );
    });
  });
}

/** As scripts/start.sh and `npm start` run the server (tests/integration/deployment.test.ts). */
export const SERVER_NODE_FLAGS = "--max-semi-space-size=8";

/**
 * `node server.js` on the production build, listening on 127.0.0.1:`port` with the sandbox
 * payment provider; `env` adds the secret, the limits and whatever the caller tests.
 */
export function spawnServer(
  port: number,
  dbPath: string,
  env: Record<string, string>,
  options: { cgroupProcs?: string[] } = {},
) {
  if (!existsSync("build/server/index.js")) throw new Error("Run `npm run build` first");
  // In cgroups (tests/setup/fly-machine.ts), from the server's first allocation.
  const [command, args] = inCgroups(options.cgroupProcs, process.execPath, [
    SERVER_NODE_FLAGS,
    "server.js",
  ]);
  return spawn(command, args, {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_PATH: dbPath,
      DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
      PAYMENT_PROVIDER: "sandbox",
      // Off: servers run side by side and 9091 is one port. The metrics test picks its own.
      METRICS_PORT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Resolves once `url`/healthz answers 200. A process that exits first, or is not up in time,
 * fails with what it printed; one that is still starting is killed, so it cannot linger.
 */
export async function waitUntilHealthy(
  child: ChildProcess,
  url: string,
  output: () => string,
  timeoutMs = 55_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited early:\n${output()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`Server did not start:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Gives the database of a started server its first admin, so that registration is open
 * (docs/deploy.md "First deploy": create-admin comes before the doors open).
 */
export function openRegistration(dbPath: string) {
  const writer = openDatabaseFile(dbPath);
  try {
    ensureStudioAdmin(writer);
  } finally {
    writer.$client.close();
  }
}

/** The SESSION_SECRET of every server `startServer` starts (a test may override it). */
export const INTEGRATION_SESSION_SECRET = "integration-test-secret-0123456789abcdef";

/** The limits and rules of every server `startServer` starts, and of the app in process. */
export const TEST_SERVER_SETTINGS: Record<string, string> = {
  LOGIN_RATE_LIMIT: "1000",
  LOGIN_ACCOUNT_LIMIT: "1000",
  REGISTER_RATE_LIMIT: "1000",
  COUPON_LOOKUP_LIMIT: "1000",
  TWO_FACTOR_CODE_LIMIT: "1000",
  // Admins of most suites sign in without a second factor; the staff gate's suite
  // (two-factor-staff.test.ts) turns the rule on, as production has it by default.
  REQUIRE_STAFF_2FA: "false",
  // Suites that book many sessions for one customer, years ahead; tests of these limits set their own.
  MAX_UNPAID_HOLDS: "1000",
  MAX_UNPAID_SESSIONS: "1000",
  BOOKING_HORIZON_DAYS: "36500",
  // Suites book and reschedule many sessions from one address; the limits' own tests set theirs.
  BOOKING_RATE_LIMIT: "100000",
  PAYMENT_STATUS_LIMIT: "100000",
};

export async function startServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const port = await freePort();
  const dbPath = join(tmpdir(), `studio-it-${randomUUID()}.db`);
  const filesDir = extraEnv.FILES_DIR ?? `${dbPath}.files`;
  const child = spawnServer(port, dbPath, {
    FILES_DIR: filesDir,
    // The server runs in the zone the suite runs in (npm run test:integration: Auckland's,
    // far from both UTC and the studio's, so a date taken from the host's zone shows).
    ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
    SESSION_SECRET: INTEGRATION_SESSION_SECRET,
    ...TEST_SERVER_SETTINGS,
    ...extraEnv,
  });
  const logDir = process.env[LOG_DIR_VARIABLE];
  const logName = logDir ? join(logDir, basename(dbPath, ".db")) : undefined;
  const output = collectOutput(child, logName);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(child, url, output);
  openRegistration(dbPath);
  const reader = openDatabaseFile(dbPath, { readonly: true });
  const secretSettings = Object.entries({
    SESSION_SECRET: INTEGRATION_SESSION_SECRET,
    DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
    ...extraEnv,
  })
    .filter(([name]) => /SECRET|PASSWORD|_KEY|SMTP_URL/.test(name))
    .map(([, value]) => value);
  return {
    url,
    dbPath,
    filesDir,
    db: reader,
    output,
    count: (table) => reader.select({ n: count() }).from(COUNTED[table]).get()?.n ?? 0,
    async stop() {
      if (logName) {
        writeServerSecrets(`${logName}.secrets.json`, reader, secretSettings);
      }
      reader.$client.close();
      await stopServerProcess(child, dbPath);
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

/** Stops a server started on its own SQLite file and deletes the file. */
export async function stopServerProcess(child: ChildProcess, dbPath: string) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
}

/**
 * Everything a child process prints, as it prints it; with `logName`, also into
 * `<logName>.stdout.log` and `.stderr.log`, which the suite's log audit reads.
 */
export function collectOutput(child: ChildProcess, logName?: string): () => string {
  let output = "";
  const collect = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
    output += chunk;
    if (logName) appendFileSync(`${logName}.${stream}.log`, chunk);
  };
  child.stdout?.on("data", collect("stdout"));
  child.stderr?.on("data", collect("stderr"));
  return () => output;
}

/**
 * What this server's log must not hold, for the log audit: the secret settings it was started
 * with, and every sign-in it made, as stored (a SHA-256 of the cookie's value; the audit hashes
 * the log's tokens to find a cookie's value).
 */
function writeServerSecrets(file: string, reader: TestDatabase, settings: string[]) {
  const ids = reader
    .select({ id: signIns.id })
    .from(signIns)
    .all()
    .map((row) => row.id);
  const content: ServerSecrets = { secrets: [...settings, ...ids] };
  writeFileSync(file, JSON.stringify(content));
}

/** A line of the server's JSON log (pino: level 30 info, 40 warn, 50 error, 60 fatal). */
export type LogLine = { level: number; msg: string; reqId?: string; [field: string]: unknown };

/** The server's log, line by line; a line that is not JSON fails the test that reads it. */
export function logLines(output: string): LogLine[] {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`The server wrote a line that is not JSON: ${line.slice(0, 200)}`);
      }
    });
}

/** The error (and fatal) lines of a server's log. */
export function errorLines(output: string): LogLine[] {
  return logLines(output).filter((line) => line.level >= 50);
}

/** The cookie pairs ("name=value") a response set, ready for a Cookie header. */
export function cookiesFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

let counter = 0;
export function uniqueUsername(prefix = "user") {
  counter += 1;
  return `${prefix}${process.pid}x${counter}x${Math.floor(Math.random() * 1e6)}`;
}

export function registrationPayload(overrides: Record<string, unknown> = {}) {
  return {
    username: uniqueUsername(),
    password: "correct-horse-battery",
    firstName: "Ada",
    lastName: "Lovelace",
    businessName: "Analytical Audio",
    phoneNumber: "404-555-0100",
    email: "ada@example.com",
    isStakeholder: false,
    ...overrides,
  };
}
