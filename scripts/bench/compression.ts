/**
 * Compression chosen by measurement (issue 28). After `npm run build`, as root:
 *
 *   npx tsx scripts/bench/compression.ts [label=checkout ...]
 *
 * Each server in a Fly-shaped cgroup of its own (fly-app.ts), one run: CPU per response of the
 * landing page, /auth, the dashboard, an admin tab, two JSON reads and the landing page's
 * biggest script, as multiples of the bare `node:http` server's "ok" (the unit), measured from
 * the server process's CPU time over BENCH_DURATION seconds (default 5) of 10 connections:
 * - end to end, for each checkout given (default: this one), answering `identity` and what
 *   browsers ask for (`gzip, deflate, br, zstd`), with the bytes each answer takes;
 * - every candidate setting (gzip levels 1/4/6, brotli quality 1-5 at windows of 2^16-2^20 and
 *   the default 2^22, with and without the size hint) compressing those answers' bytes as the
 *   compression middleware does, in a process of the same shape (codec-cost.ts).
 * The end-to-end answer is the identity one plus the setting's compression.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createFlyCgroup, inCgroups } from "#tests/setup/fly-machine";
import type { CodecInput, CodecResult, CodecSetting } from "./codec-cost";
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

const SETTINGS: CodecSetting[] = [
  ...[1, 4, 6].map((level) => ({ encoder: "gzip" as const, level })),
  ...[1, 2, 3, 4, 5].flatMap((quality) =>
    [16, 17, 18, 19, 20, 22].flatMap((window) =>
      [false, true].map((sizeHint) => ({ encoder: "br" as const, quality, window, sizeHint })),
    ),
  ),
];

export const settingName = (s: CodecSetting) =>
  s.encoder === "gzip"
    ? `gzip ${s.level}`
    : `br q${s.quality} w${s.window}${s.sizeHint ? " hint" : ""}`;

/** codec-cost.ts in a Fly-shaped cgroup of its own, over the bodies saved in `dir`. */
async function codecCosts(dir: string, bodies: CodecInput["bodies"]): Promise<CodecResult[]> {
  const inputPath = join(dir, "input.json");
  writeFileSync(inputPath, JSON.stringify({ bodies, settings: SETTINGS } satisfies CodecInput));
  const cgroup = createFlyCgroup("codec-cost");
  try {
    const [command, args] = inCgroups(cgroup.procs, process.execPath, [
      "--import",
      "tsx",
      "scripts/bench/codec-cost.ts",
      inputPath,
    ]);
    const child = spawn(command, args, { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`codec-cost.ts exited with ${code}`);
    return out
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CodecResult);
  } finally {
    await cgroup.remove();
  }
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const kb = (bytes: number) => `${fixed(bytes / 1024)} KB`;

async function main() {
  const checkouts = (process.argv.slice(2).length ? process.argv.slice(2) : ["this="]).map(
    (arg) => {
      const [label = "", root = ""] = arg.split("=");
      return { label, root: root || PROJECT_ROOT };
    },
  );
  const dir = mkdtempSync(join(tmpdir(), "studio-compression-"));
  const lines: string[] = [];
  const print = (line = "") => {
    lines.push(line);
    console.log(line);
  };
  try {
    let unit = 0;
    const bodies: CodecInput["bodies"] = [];
    const endToEnd: string[] = [];
    for (const [index, { label, root }] of checkouts.entries()) {
      const app = await startFlyApp(`compression-${index}`, root);
      if (index === 0) {
        const bare = await startFlyBare("compression-bare", app);
        unit = (await cpuPerAnswer(bare, "/healthz", {})).cpuMs;
        await bare.stop();
        console.error(`unit: bare node:http "ok" ${fixed(unit, 3)} ms CPU per answer`);
      }
      const list = endpoints(app, await biggestScript(app));
      for (const endpoint of list) {
        const cells: string[] = [];
        for (const encoding of ["identity", BROWSER]) {
          const headers = headersFor(app, endpoint, encoding);
          const answer = await rawGet(app.server.url + endpoint.path, headers);
          if (answer.status !== 200) throw new Error(`${endpoint.path} answered ${answer.status}`);
          const { cpuMs: cpu } = await cpuPerAnswer(app, endpoint.path, headers);
          cells.push(
            `${fixed(cpu, 2)} ms = ${fixed(cpu / unit)}x, ${kb(answer.body.byteLength)} ${answer.encoding}`,
          );
          if (index === checkouts.length - 1 && encoding === "identity") {
            const path = join(dir, `${endpoint.id}.body`);
            writeFileSync(path, answer.body);
            bodies.push({ id: endpoint.id, path });
          }
        }
        endToEnd.push(`| ${label} | ${endpoint.id} | ${cells.join(" | ")} |`);
        console.error(endToEnd.at(-1));
      }
      await app.stop();
    }
    const costs = await codecCosts(dir, bodies);

    print(`Unit: bare node:http "ok", ${fixed(unit, 3)} ms CPU per answer.`);
    print();
    print("| Checkout | Endpoint | identity | gzip, deflate, br, zstd |");
    print("|---|---|---|---|");
    for (const line of endToEnd) print(line);
    print();
    const ids = bodies.map((body) => body.id);
    print(`| Setting | ${ids.join(" | ")} |`);
    print(`|---|${ids.map(() => "---:|").join("")}`);
    for (const setting of SETTINGS) {
      const name = settingName(setting);
      const cells = ids.map((id) => {
        const cost = costs.find((c) => c.id === id && settingName(c.setting) === name);
        return cost ? `${fixed(cost.cpuMs / unit)}x ${kb(cost.bytes)}` : "-";
      });
      print(`| ${name} | ${cells.join(" | ")} |`);
    }
    writeFileSync(
      join(tmpdir(), "studio-compression-results.json"),
      JSON.stringify({ unit, costs }),
    );
    writeFileSync(join(tmpdir(), "studio-compression-results.md"), `${lines.join("\n")}\n`);
  } finally {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
