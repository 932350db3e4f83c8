/**
 * `npm run bench:whole-lists`: the cost of the admin JSON lists answered whole (docs/product.md
 * "The JSON API"), at 100,000 bookings (BENCH_WHOLE_SCALE to change it). Starts `node server.js`
 * on the production build (run `npm run build` first) on a fresh SQLite file, signs up an admin,
 * seeds the bookings as `npm run bench` does, then for GET /api/admin/bookings and
 * /api/admin/payments, RUNS times each (default 3, the median is reported): time to the first
 * and the last byte, the rows and bytes received, the server's resident memory at its highest
 * just before the request and at its highest while the answer streamed (sampled every 10 ms), and the
 * slowest `GET /healthz` answered while the list streamed (the list must not hold the server).
 * Prints a Markdown table for docs/benchmarks.md.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";
import { startApp } from "./processes";
import { seedBookings } from "./seed";

const SCALE = Number(process.env.BENCH_WHOLE_SCALE || 100_000);
const RUNS = Number(process.env.BENCH_WHOLE_RUNS || 3);
const PATHS = [
  "/api/admin/bookings",
  "/api/admin/payments",
  "/api/admin/bookings?page=1&limit=500",
  "/api/admin/payments?page=1&limit=500",
];

function rssMb(pid: number, field: "VmRSS"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024;
}

type Run = {
  firstByteMs: number;
  lastByteMs: number;
  rows: number;
  mb: number;
  beforeRssMb: number;
  peakRssMb: number;
  slowestHealthMs: number;
};

async function measure(url: string, cookie: string, pid: number): Promise<Run> {
  const beforeRssMb = rssMb(pid, "VmRSS");
  let peak = beforeRssMb;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid, "VmRSS"));
  }, 10);
  let streaming = true;
  let slowestHealthMs = 0;
  const health = (async () => {
    while (streaming) {
      const start = performance.now();
      await (await fetch(`${new URL(url).origin}/healthz`)).arrayBuffer();
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const start = performance.now();
  const response = await fetch(url, { headers: { Cookie: cookie } });
  const firstByteMs = performance.now() - start;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const text = await response.text();
  const lastByteMs = performance.now() - start;
  streaming = false;
  await health;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid, "VmRSS"));
  const rows = (JSON.parse(text) as unknown[]).length;
  return {
    firstByteMs,
    lastByteMs,
    rows,
    mb: Buffer.byteLength(text) / 1024 / 1024,
    beforeRssMb,
    peakRssMb: peak,
    slowestHealthMs,
  };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main() {
  const dbPath = join(tmpdir(), `studio-whole-${SCALE}-${randomUUID()}.db`);
  const app = await startApp(dbPath);
  try {
    const response = await fetch(`${app.url}/api/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.url },
      body: JSON.stringify(registrationPayload()),
    });
    const admin = { ...((await response.json()) as { id: number }), cookie: cookiesFrom(response) };
    const customer = await fetch(`${app.url}/api/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.url },
      body: JSON.stringify(registrationPayload()),
    });
    const customerId = ((await customer.json()) as { id: number }).id;
    const db = new Database(dbPath);
    db.pragma("busy_timeout = 5000");
    db.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").run(admin.id);
    db.close();
    const now = Date.now();
    const availabilityDate = addStudioDays(earliestBookableDate(now), 2);
    seedBookings(dbPath, { count: SCALE, customerId, availabilityDate, now });
    const idleRssMb = rssMb(app.pid, "VmRSS");
    console.log(`seeded ${SCALE} bookings; server idle at ${idleRssMb.toFixed(0)} MB RSS`);
    const lines = [
      "| Request | Rows | Body (MB) | First byte (ms) | Last byte (ms) | RSS before (MB) | Peak RSS while streaming (MB) | Slowest /healthz meanwhile (ms) |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ];
    // Warm-up: JIT and SQLite's page cache. Reported as the cold first requests.
    for (const path of PATHS) {
      const run = await measure(`${app.url}${path}`, admin.cookie, app.pid);
      lines.push(
        `| \`GET ${path}\` (cold, first) | ${run.rows} | ${run.mb.toFixed(2)} | ${run.firstByteMs.toFixed(0)} | ${run.lastByteMs.toFixed(0)} | ${run.beforeRssMb.toFixed(0)} | ${run.peakRssMb.toFixed(0)} | ${run.slowestHealthMs.toFixed(0)} |`,
      );
      console.log(lines.at(-1));
    }
    for (const path of PATHS) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i += 1)
        runs.push(await measure(`${app.url}${path}`, admin.cookie, app.pid));
      const pick = (key: keyof Run) => median(runs.map((run) => run[key]));
      lines.push(
        `| \`GET ${path}\` | ${pick("rows")} | ${pick("mb").toFixed(2)} | ${pick("firstByteMs").toFixed(0)} | ${pick("lastByteMs").toFixed(0)} | ${pick("beforeRssMb").toFixed(0)} | ${Math.max(...runs.map((r) => r.peakRssMb)).toFixed(0)} | ${pick("slowestHealthMs").toFixed(0)} |`,
      );
      console.log(lines.at(-1));
    }
    console.log(`\nServer idle after seeding: ${idleRssMb.toFixed(0)} MB RSS\n`);
    console.log(lines.join("\n"));
  } catch (error) {
    console.error(app.output());
    throw error;
  } finally {
    await app.stop();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  }
}

await main();
