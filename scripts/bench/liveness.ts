/**
 * Fly's liveness check while the machine is busy (issue 28). After `npm run build`, as root:
 *
 *   npx tsx scripts/bench/liveness.ts [label=checkout ...]
 *
 * For each checkout given (default: this one), the app in a Fly-shaped cgroup (fly-app.ts)
 * under 50 eager connections on the dashboard (autocannon, browsers' Accept-Encoding) for
 * BENCH_DURATION seconds (default 30), while `GET /healthz` goes out every 250 ms on a fresh
 * connection, as Fly's check makes it, and gives up after Fly's 5 s. Prints each checkout's
 * slowest probe, its median, the probes that failed and the dashboard's answers per second.
 */
import http from "node:http";
import autocannon from "autocannon";
import { startFlyApp, stopAll } from "./fly-app";
import { PROJECT_ROOT } from "./processes";

const DURATION = Number(process.env.BENCH_DURATION || 30);
const PROBE_EVERY_MS = 250;
const FLY_TIMEOUT_MS = 5_000;

/** Milliseconds to the probe's last byte, or undefined when it failed or timed out. */
function probe(url: string): Promise<number | undefined> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.get(`${url}/healthz`, { agent: false }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve(res.statusCode === 200 ? performance.now() - started : undefined),
      );
    });
    request.setTimeout(FLY_TIMEOUT_MS, () => {
      request.destroy();
      resolve(undefined);
    });
    request.on("error", () => resolve(undefined));
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

async function measure(label: string, root: string, index: number) {
  const app = await startFlyApp(`liveness-${index}`, root);
  try {
    const load = autocannon({
      url: `${app.server.url}/dashboard`,
      connections: 50,
      duration: DURATION,
      headers: { Cookie: app.customerCookie, "Accept-Encoding": "gzip, deflate, br, zstd" },
    });
    const probes: Promise<number | undefined>[] = [];
    // The first seconds fill the queue: probes start once every connection has asked.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const timer = setInterval(() => probes.push(probe(app.server.url)), PROBE_EVERY_MS);
    const result = await load;
    clearInterval(timer);
    const times = await Promise.all(probes);
    const answered = times.filter((t): t is number => t !== undefined).sort((a, b) => a - b);
    const row = {
      label,
      probes: times.length,
      failed: times.length - answered.length,
      p50: Math.round(percentile(answered, 50)),
      p99: Math.round(percentile(answered, 99)),
      worst: Math.round(answered.at(-1) ?? Number.NaN),
      dashboardPerSecond: Math.round(result.requests.average * 10) / 10,
      dashboardNon2xx: result.non2xx,
    };
    console.error(JSON.stringify(row));
    return row;
  } finally {
    await app.stop();
  }
}

const checkouts = (process.argv.slice(2).length ? process.argv.slice(2) : ["this="]).map((arg) => {
  const [label = "", root = ""] = arg.split("=");
  return { label, root: root || PROJECT_ROOT };
});
try {
  const rows = [];
  for (const [index, { label, root }] of checkouts.entries()) {
    rows.push(await measure(label, root, index));
  }
  console.log("| Checkout | Probes | Failed (5 s) | p50 | p99 | Worst | Dashboard answers/s |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.probes} | ${r.failed} | ${r.p50} ms | ${r.p99} ms | ${r.worst} ms | ${r.dashboardPerSecond} |`,
    );
  }
} finally {
  await stopAll();
}
