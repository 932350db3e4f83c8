import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { PROJECT_ROOT } from "#tests/e2e/env";
import { inCgroups } from "#tests/setup/fly-machine";
import { collectOutput, freePort, openRegistration, waitUntilHealthy } from "#tests/setup/server";

/** The processes the bench measures: the production app and the bare baseline. */
export type BenchProcess = {
  url: string;
  pid: number;
  /** Resident-set high-water mark (VmHWM) so far, in MB. */
  peakRssMb(): number;
  output(): string;
  stop(): Promise<void>;
};

export { PROJECT_ROOT };

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** Both answer /healthz: the app and the bare baseline; inside the cgroups of `cgroupProcs`, if any. */
async function launch(
  args: string[],
  env: Record<string, string>,
  port: number,
  cgroupProcs?: string[],
  root = PROJECT_ROOT,
): Promise<BenchProcess> {
  const [command, commandArgs] = inCgroups(cgroupProcs, process.execPath, args);
  const child = spawn(command, commandArgs, {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(child, url, output, 30_000);
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    peakRssMb: () => peakRssMb(pid),
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * `node server.js` on the production build, as `npm start` runs it, on its own database;
 * inside a Fly-shaped cgroup (tests/setup/fly-machine.ts) when given its procs files; from
 * `root`, another checkout's build, to compare with it; `extraEnv` added to its settings.
 */
export async function startApp(
  dbPath: string,
  cgroupProcs?: string[],
  root = PROJECT_ROOT,
  extraEnv: Record<string, string> = {},
): Promise<BenchProcess> {
  const port = await freePort();
  const app = await launch(
    [...nodeFlagsOf(root), "server.js"],
    {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_PATH: dbPath,
      SESSION_SECRET: "bench-only-session-secret-0123456789abcdef",
      DATA_ENCRYPTION_KEY: "YmVuY2gtb25seS1kYXRhLWVuY3J5cHRpb24ta2V5LTA=",
      PAYMENT_PROVIDER: "sandbox",
      // The bench signs up its own accounts and logs one in thousands of times from one
      // address (the login run); the limits are for people.
      LOGIN_RATE_LIMIT: "1000000",
      LOGIN_ACCOUNT_LIMIT: "1000000",
      REGISTER_RATE_LIMIT: "1000",
      // The booking-creation run books many unpaid sessions for one account, far ahead: with
      // the hold cap and horizon of a real site it would measure refusals, not bookings.
      MAX_UNPAID_HOLDS: "100000",
      MAX_UNPAID_SESSIONS: "100000",
      BOOKING_HORIZON_DAYS: "36500",
      // The bench's admin has no second factor: it measures pages, not the staff gate.
      REQUIRE_STAFF_2FA: "false",
      // Thousands of bookings from one account and address: the limit is for people.
      BOOKING_RATE_LIMIT: "1000000",
      // Metrics on, as in production, on a port of its own.
      METRICS_PORT: String(await freePort()),
      METRICS_HOST: "127.0.0.1",
      ...extraEnv,
    },
    port,
    cgroupProcs,
    root,
  );
  // Registration opens once an admin exists (docs/deploy.md "First deploy").
  openRegistration(dbPath);
  return app;
}

/** The flags the checkout's `npm start` gives node: another checkout is run as it ran. */
function nodeFlagsOf(root: string): string[] {
  const { scripts } = JSON.parse(readFileSync(`${root}/package.json`, "utf8")) as {
    scripts: Record<string, string>;
  };
  const flags = /\bnode ((?:--\S+ )*)\.\/server\.js/.exec(scripts.start ?? "")?.[1] ?? "";
  return flags.split(" ").filter(Boolean);
}

/** The bare `node:http` baseline (bare-server.ts) on the same database file. */
export async function startBare(
  dbPath: string,
  cgroupProcs?: string[],
  extraEnv: Record<string, string> = {},
): Promise<BenchProcess> {
  const port = await freePort();
  return launch(
    ["--import", "tsx", "scripts/bench/bare-server.ts"],
    { BARE_PORT: String(port), DATABASE_PATH: dbPath, ...extraEnv },
    port,
    cgroupProcs,
  );
}
