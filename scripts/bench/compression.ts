/**
 * Compression chosen by measurement (issue 28). After `npm run build`, as root:
 *
 *   npm run bench:compression [-- label=checkout ...]
 *
 * Each server in a Fly-shaped cgroup of its own (fly-app.ts), one run: CPU per answer as
 * multiples of the bare `node:http` server's "ok" (the unit), from the server process's CPU
 * time over BENCH_DURATION seconds (default 5) of 10 connections, and the bytes of each answer:
 * - for each checkout given (default: this one): the landing page, /auth, the dashboard, an
 *   admin tab, two JSON reads and the landing page's biggest script, answering `identity` and
 *   what browsers ask for (`gzip, deflate, br, zstd`);
 * - for the last one, at each candidate setting (zlib-settings.mjs opens every stream of the
 *   app with it): the pages, the costliest answers to compress. Measured in the app, not on
 *   the bytes alone: each brotli stream's window is memory the app's garbage collector pays for.
 */

import { writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { cpuMs, type FlyApp, type FlyServer, startFlyApp, startFlyBare, stopAll } from "./fly-app";
import { PROJECT_ROOT } from "./processes";

const DURATION = Number(process.env.BENCH_DURATION || 5);
const CONNECTIONS = 10;
const BROWSER = "gzip, deflate, br, zstd";

type Endpoint = { id: string; path: string; cookie?: "customer" | "admin" };

function endpoints(app: FlyApp, script: string): Endpoint[] {
  return [
    { id: "landing", path: "/" },
    { id: "auth", path: "/auth" },
    { id: "dashboard", path: "/dashboard", cookie: "customer" },
    { id: "admin-bookings", path: "/admin/bookings", cookie: "admin" },
    { id: "availability", path: `/api/availability?date=${app.availabilityDate}&hours=2` },
    { id: "own-bookings", path: "/api/bookings", cookie: "customer" },
    { id: "script", path: script },
  ];
}

const headersFor = (app: FlyApp, endpoint: Endpoint, encoding: string) => ({
  "Accept-Encoding": encoding,
  ...(endpoint.cookie === "customer" ? { Cookie: app.customerCookie } : {}),
  ...(endpoint.cookie === "admin" ? { Cookie: app.adminCookie } : {}),
});

/** One answer as it travels: its body's bytes still encoded, and the coding. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; encoding: string; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: String(res.headers["content-encoding"] ?? "identity"),
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on("error", reject);
  });
}

/** CPU per answer of `path` under 10 connections for DURATION seconds, in ms. */
async function cpuPerAnswer(server: FlyServer, path: string, headers: Record<string, string>) {
  const run = (duration: number) =>
    autocannon({ url: server.server.url + path, connections: CONNECTIONS, duration, headers });
  await run(1);
  const before = cpuMs(server.server.pid);
  const result = await run(DURATION);
  const spent = cpuMs(server.server.pid) - before;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return { cpuMs: spent / result.requests.total, requests: result.requests.total };
}

/** The biggest script the landing page loads. */
async function biggestScript(app: FlyApp): Promise<string> {
  const html = (await rawGet(`${app.server.url}/`, {})).body.toString("utf8");
  const scripts = [...new Set(html.match(/\/assets\/[\w.-]+\.js/g) ?? [])];
  let biggest = { path: "", bytes: 0 };
  for (const path of scripts) {
    const bytes = (await rawGet(app.server.url + path, {})).body.byteLength;
    if (bytes > biggest.bytes) biggest = { path, bytes };
  }
  return biggest.path;
}

type Setting =
  | { encoder: "gzip"; level: number }
  | { encoder: "br"; quality: number; window: number };
const SETTINGS: Setting[] = [
  { encoder: "gzip", level: 6 },
  ...[
    [4, 22],
    [4, 18],
    [3, 18],
    [1, 18],
    [4, 16],
  ].map(([quality = 0, window = 0]) => ({ encoder: "br" as const, quality, window })),
];

const settingName = (s: Setting) =>
  s.encoder === "gzip" ? `gzip ${s.level}` : `br q${s.quality} w${s.window}`;

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const kb = (bytes: number) => `${fixed(bytes / 1024)} KB`;

/** One answer of each endpoint, and its CPU under load, as `encoding` asks. */
async function measureAll(app: FlyApp, list: Endpoint[], encoding: string) {
  const cells: string[] = [];
  for (const endpoint of list) {
    const headers = headersFor(app, endpoint, encoding);
    const answer = await rawGet(app.server.url + endpoint.path, headers);
    if (answer.status !== 200) throw new Error(`${endpoint.path} answered ${answer.status}`);
    const { cpuMs: cpu } = await cpuPerAnswer(app, endpoint.path, headers);
    cells.push(`${fixed(cpu / unit)}x, ${kb(answer.body.byteLength)} ${answer.encoding}`);
    console.error(`${endpoint.id} ${encoding}: ${fixed(cpu, 2)} ms, ${cells.at(-1)}`);
  }
  return cells;
}

let unit = 0;

async function main() {
  const checkouts = (process.argv.slice(2).length ? process.argv.slice(2) : ["this="]).map(
    (arg) => {
      const [label = "", root = ""] = arg.split("=");
      return { label, root: root || PROJECT_ROOT };
    },
  );
  const lines: string[] = [];
  const print = (line = "") => {
    lines.push(line);
    console.log(line);
  };
  try {
    const byCheckout: string[] = [];
    let ids: string[] = [];
    for (const [index, { label, root }] of checkouts.entries()) {
      const app = await startFlyApp(`compression-${index}`, root);
      if (index === 0) {
        const bare = await startFlyBare("compression-bare", app);
        unit = (await cpuPerAnswer(bare, "/healthz", {})).cpuMs;
        await bare.stop();
        console.error(`unit: bare node:http "ok" ${fixed(unit, 3)} ms CPU per answer`);
      }
      const list = endpoints(app, await biggestScript(app));
      ids = list.map((endpoint) => endpoint.id);
      for (const encoding of ["identity", BROWSER]) {
        const cells = await measureAll(app, list, encoding);
        byCheckout.push(`| ${label}, ${encoding} | ${cells.join(" | ")} |`);
      }
      await app.stop();
    }
    const last = checkouts.at(-1)?.root ?? PROJECT_ROOT;
    const bySetting: string[] = [];
    const preload = join(PROJECT_ROOT, "scripts", "bench", "zlib-settings.mjs");
    for (const [index, setting] of SETTINGS.entries()) {
      const app = await startFlyApp(`compression-setting-${index}`, last, {
        NODE_OPTIONS: `--import=${preload}`,
        BENCH_ZLIB: JSON.stringify(setting),
      });
      const pages = endpoints(app, "").filter(
        (e) => e.path.startsWith("/") && !e.path.startsWith("/api/") && e.id !== "script",
      );
      const cells = await measureAll(app, pages, setting.encoder);
      bySetting.push(`| ${settingName(setting)} | ${cells.join(" | ")} |`);
      await app.stop();
    }

    print(`Unit: bare node:http "ok", ${fixed(unit, 3)} ms CPU per answer.`);
    print();
    print(`| Checkout, Accept-Encoding | ${ids.join(" | ")} |`);
    print(`|---|${ids.map(() => "---:|").join("")}`);
    for (const line of byCheckout) print(line);
    print();
    const pageIds = ["landing", "auth", "dashboard", "admin-bookings"];
    print(`| Setting (${checkouts.at(-1)?.label}) | ${pageIds.join(" | ")} |`);
    print(`|---|${pageIds.map(() => "---:|").join("")}`);
    for (const line of bySetting) print(line);
    writeFileSync(join(tmpdir(), "studio-compression-results.md"), `${lines.join("\n")}\n`);
  } finally {
    await stopAll();
  }
}

await main();
