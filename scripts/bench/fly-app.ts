import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { createFlyCgroup, type FlyCgroup } from "#tests/setup/fly-machine";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";
import { type BenchProcess, PROJECT_ROOT, startApp, startBare } from "./processes";
import { seedBookings } from "./seed";

/**
 * The servers of the focused measurements (compression.ts, liveness.ts), each in a Fly-shaped
 * cgroup of its own (tests/setup/fly-machine.ts, root only), as `npm run bench` starts them:
 * the production app of a build on a fresh database of 100 bookings with a signed-in customer
 * and admin, and the bare `node:http` server, the unit. `stop` stops the server, removes its
 * cgroup and its database.
 */
export type FlyServer = { server: BenchProcess; cgroup: FlyCgroup; stop(): Promise<void> };
export type FlyApp = FlyServer & {
  customerCookie: string;
  adminCookie: string;
  availabilityDate: string;
  dbPath: string;
};

/** Whatever is still running when the script stops (an error, Ctrl-C). */
const running = new Set<FlyServer>();
export async function stopAll() {
  for (const server of [...running].reverse()) await server.stop();
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stopAll().finally(() => process.exit(130)));
}

async function inCgroup(
  label: string,
  start: (procs: string[]) => Promise<BenchProcess>,
  dbPath?: string,
): Promise<FlyServer> {
  const cgroup = createFlyCgroup(label);
  let server: BenchProcess;
  try {
    server = await start(cgroup.procs);
  } catch (error) {
    await cgroup.remove();
    throw error;
  }
  const handle: FlyServer = {
    server,
    cgroup,
    async stop() {
      if (!running.delete(handle)) return;
      await server.stop();
      await cgroup.remove();
      for (const suffix of ["", "-wal", "-shm"]) {
        if (dbPath) rmSync(`${dbPath}${suffix}`, { force: true });
      }
    },
  };
  running.add(handle);
  return handle;
}

async function signUp(url: string): Promise<{ id: number; cookie: string }> {
  const response = await fetch(`${url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify(registrationPayload()),
  });
  if (response.status !== 201) throw new Error(`Sign-up answered ${response.status}`);
  const { id } = (await response.json()) as { id: number };
  return { id, cookie: cookiesFrom(response) };
}

export async function startFlyApp(
  label: string,
  root = PROJECT_ROOT,
  extraEnv: Record<string, string> = {},
): Promise<FlyApp> {
  const dbPath = join(tmpdir(), `studio-${label}-${randomUUID()}.db`);
  const started = await inCgroup(label, (procs) => startApp(dbPath, procs, root, extraEnv), dbPath);
  try {
    const url = started.server.url;
    const customer = await signUp(url);
    const admin = await signUp(url);
    const db = new Database(dbPath);
    db.pragma("busy_timeout = 5000");
    db.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").run(admin.id);
    db.close();
    const now = Date.now();
    const availabilityDate = addStudioDays(earliestBookableDate(now), 2);
    seedBookings(dbPath, { count: 100, customerId: customer.id, availabilityDate, now });
    return {
      ...started,
      customerCookie: customer.cookie,
      adminCookie: admin.cookie,
      availabilityDate,
      dbPath,
    };
  } catch (error) {
    console.error(started.server.output());
    await started.stop();
    throw error;
  }
}

/** The bare server needs a migrated database: `app`'s. */
export function startFlyBare(
  label: string,
  app: FlyApp,
  env: Record<string, string> = {},
): Promise<FlyServer> {
  return inCgroup(label, (procs) => startBare(app.dbPath, procs, env));
}

const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));

/** CPU time a process has used so far, all its threads (zlib's and libuv's too), in ms. */
export function cpuMs(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
