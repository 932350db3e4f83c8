/**
 * What people feel, as ratios that carry from one machine to another (issue 28), in the Fly
 * shape, each server in a cgroup of its own:
 * - CPU per answer: the server process's CPU time (every thread) over a run at 10 connections,
 *   divided by the answers, against the bare server's `/healthz` measured the same way (the unit);
 * - landing capacity at 50 connections against a `node:http` server sending the landing page's
 *   bytes, as a browser gets them, from memory;
 * - latency under arrivals at a constant rate of half the measured capacity, each request timed
 *   from the moment it was due, not from when a connection was free to send it (an eager load
 *   generator waits for the server and so hides the queue: coordinated omission).
 */
import http from "node:http";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { type LoadTarget, load } from "./load";
import { cpuMs } from "./fly-app";
import type { BenchProcess } from "./processes";

export type CpuFigure = { id: string; name: string; ms: number; unitMs: number; budget: number };
export type CapacityFigure = { appRps: number; bytesRps: number; bytes: number; encoding: string };
export type OpenLoopFigure = {
  id: string;
  name: string;
  rate: number;
  sent: number;
  p50: number;
  p99: number;
  worst: number;
  serverErrors: number;
  timeouts: number;
  /** Connection errors other than timeouts. */
  errors: number;
  /** How late the sender itself sent (p99): a figure near the p99 measures it, not the server. */
  senderLagP99: number;
};
export type LimitsResult = {
  duration: number;
  cpu: CpuFigure[];
  capacity?: CapacityFigure;
  openLoop: OpenLoopFigure[];
};

/** Browsers ask for these: the answers measured are the ones they get. */
export const BROWSER_ENCODINGS = "gzip, deflate, br, zstd";
const TIMEOUT_MS = 10_000;

/** CPU per answer of `target` at 10 connections, in ms. */
export async function cpuPerAnswer(
  server: BenchProcess,
  target: LoadTarget,
  seconds: number,
): Promise<number> {
  await load(server.url, target, 10, 1);
  const before = cpuMs(server.pid);
  const result = await load(server.url, target, 10, seconds);
  const spent = cpuMs(server.pid) - before;
  if (result.requests === 0 || result.non2xx > 0) {
    throw new Error(`${target.path}: ${result.requests} answers, ${result.non2xx} not 2xx`);
  }
  return spent / result.requests;
}

/** The landing page as a browser gets it, written for the bytes server (bare-server.ts). */
export async function landingBytes(
  app: BenchProcess,
): Promise<{ file: string; bytes: number; encoding: string }> {
  const answer = await new Promise<{ body: Buffer; encoding: string }>((resolve, reject) => {
    http
      .get(`${app.url}/`, { headers: { "Accept-Encoding": BROWSER_ENCODINGS } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            body: Buffer.concat(chunks),
            encoding: String(res.headers["content-encoding"] ?? "identity"),
          }),
        );
      })
      .on("error", reject);
  });
  const file = join(tmpdir(), `studio-bench-landing-${randomUUID()}`);
  writeFileSync(file, answer.body);
  return { file, bytes: answer.body.byteLength, encoding: answer.encoding };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

/**
 * `rate` requests a second for `seconds`, each sent when due on a free keep-alive connection (a
 * new one when none is free), timed from when it was due to its last byte.
 */
export async function openLoop(
  baseUrl: string,
  target: LoadTarget,
  rate: number,
  seconds: number,
): Promise<Omit<OpenLoopFigure, "id" | "name">> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  const lags: number[] = [];
  let serverErrors = 0;
  let timeouts = 0;
  let errors = 0;
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      lags.push(performance.now() - due);
      const request = http.get(
        `${baseUrl}${target.path}`,
        { agent, headers: target.headers },
        (res) => {
          res.resume();
          res.on("end", () => {
            if ((res.statusCode ?? 0) >= 500) serverErrors += 1;
            else latencies.push(performance.now() - due);
            resolve();
          });
        },
      );
      request.setTimeout(TIMEOUT_MS, () => {
        timeouts += 1;
        request.destroy();
        resolve();
      });
      request.on("error", () => {
        errors += 1;
        resolve();
      });
    });
  const total = Math.max(1, Math.round(rate * seconds));
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let sent = 0; sent < total; ) {
    const now = performance.now();
    // Every request already due goes out now, stamped with when it was due.
    while (sent < total && start + (sent * 1000) / rate <= now) {
      inFlight.push(send(start + (sent * 1000) / rate));
      sent += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    rate,
    sent: total,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    worst: sorted.at(-1) ?? Number.NaN,
    serverErrors,
    timeouts,
    errors,
    senderLagP99: percentile(
      lags.sort((a, b) => a - b),
      99,
    ),
  };
}

type Targets = Record<"landing" | "dashboard" | "adminTab" | "availability", LoadTarget>;

/** Issue 28's budgets: CPU per answer as a multiple of the unit, and the open-loop p99. */
export const CPU_BUDGETS = { landing: 5, dashboard: 25, adminTab: 20, availability: 6 } as const;
export const OPEN_LOOP_P99_MS = 250;
export const CAPACITY_BAR = 1 / 3;
const NAMES: Record<keyof Targets, string> = {
  landing: "Landing page `GET /`, visitor",
  dashboard: "Dashboard `GET /dashboard`",
  adminTab: "Admin tab `GET /admin/bookings`",
  availability: "Availability `GET /api/availability`",
};

/**
 * Every figure above against `app`, in the shape `startBare` starts its references in (each a
 * server of its own, stopped by its caller).
 */
export async function measureLimits(
  app: BenchProcess,
  targets: Targets,
  startBare: (label: string, env?: Record<string, string>) => Promise<BenchProcess>,
  seconds: number,
  log: (message: string) => void,
): Promise<LimitsResult> {
  const asBrowser = (target: LoadTarget): LoadTarget => ({
    ...target,
    headers: { ...target.headers, "Accept-Encoding": BROWSER_ENCODINGS },
  });
  const bare = await startBare("bench-unit");
  const unitMs = await cpuPerAnswer(bare, { method: "GET", path: "/healthz" }, seconds);
  log(`limits: unit (bare /healthz) ${unitMs.toFixed(3)} ms of CPU per answer`);
  const cpu: CpuFigure[] = [];
  for (const id of Object.keys(CPU_BUDGETS) as (keyof Targets)[]) {
    const ms = await cpuPerAnswer(app, asBrowser(targets[id]), seconds);
    cpu.push({ id, name: NAMES[id], ms, unitMs, budget: CPU_BUDGETS[id] });
    log(`limits: ${id} ${ms.toFixed(2)} ms of CPU per answer, ${(ms / unitMs).toFixed(1)}x`);
  }
  const page = await landingBytes(app);
  const bytesServer = await startBare("bench-bytes", {
    BARE_PAGE: page.file,
    BARE_PAGE_ENCODING: page.encoding,
  });
  const landing = asBrowser(targets.landing);
  const appRps = (await load(app.url, landing, 50, seconds)).rps;
  const bytesRps = (await load(bytesServer.url, { method: "GET", path: "/page" }, 50, seconds)).rps;
  log(`limits: landing ${Math.round(appRps)}/s against the same bytes ${Math.round(bytesRps)}/s`);
  const dashboard = asBrowser(targets.dashboard);
  const dashboardRps = (await load(app.url, dashboard, 50, seconds)).rps;
  const openLoopFigures: OpenLoopFigure[] = [];
  for (const [id, target, capacity] of [
    ["landing", landing, appRps],
    ["dashboard", dashboard, dashboardRps],
  ] as const) {
    const figure = await openLoop(app.url, target, capacity / 2, seconds);
    openLoopFigures.push({ id, name: NAMES[id], ...figure });
    log(
      `limits: ${id} at ${figure.rate.toFixed(1)}/s: p50 ${Math.round(figure.p50)} ms, p99 ${Math.round(figure.p99)} ms, the sender's lag p99 ${Math.round(figure.senderLagP99)} ms`,
    );
  }
  return {
    duration: seconds,
    cpu,
    capacity: { appRps, bytesRps, bytes: page.bytes, encoding: page.encoding },
    openLoop: openLoopFigures,
  };
}
