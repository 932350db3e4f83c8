import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import type { LighthouseRun } from "./lighthouse";
import { CAPACITY_BAR, type LimitsResult, OPEN_LOOP_P99_MS } from "./limits";
import type { LoadResult } from "./load";
import type { Machine } from "./machine";
import type { PageBytes } from "./pages";

/** What `npm run bench` measured, and how it reads against docs/quality.md. */
export type PageSpec = {
  path: string;
  as: "visitor" | "customer" | "admin";
  lighthouse?: boolean;
  budget?: { jsKb: number; cssKb: number };
};

export type EndpointSpec = {
  id: string;
  name: string;
  /** A JSON endpoint: held to half the bare server's throughput. */
  json?: boolean;
  /** Held to 2x between 100 and 100,000 bookings (the availability check and the lists). */
  scaleBar?: boolean;
};

/** Where the server runs: as it is on this machine, or in a cgroup shaped like fly.toml's VM. */
export const SHAPES = {
  host: "unconstrained",
  fly: "in a Fly-shaped cgroup",
} as const;
export type ShapeId = keyof typeof SHAPES;

type Pair = { app: LoadResult; bare?: LoadResult };

/** One server's runs: one scale, one shape. */
export type BenchRun = {
  bookings: number;
  shape: ShapeId;
  /** Seconds per autocannon run. */
  duration: number;
  load: Record<string, Record<number, Pair>>;
  /** The server's resident-set high-water mark (VmHWM) after the run. */
  peakRssMb: number;
  /** The Fly shape's cgroup: its size, its peak (page cache included) and its OOM kills. */
  cgroup?: { cpus: number; memoryMb: number; peakMemoryMb: number; oomKills: number };
};

export type BenchResults = {
  /** Issue 28's ratios, measured in the Fly shape at the first scale. */
  limits?: LimitsResult;
  date: Date;
  command: string;
  settings: {
    duration: number;
    flyDuration: number;
    timeoutSeconds: number;
    lighthouseRuns: number;
    connections: number[];
    scaleConnections: number;
    shapes: ShapeId[];
    /** Where pages, Lighthouse, the admin lists and the scale comparison run. */
    mainShape: ShapeId;
  };
  machine: Machine;
  flyShape?: { cpus: number; memoryMb: number };
  pages: { spec: PageSpec; bytes: PageBytes; adminChunksLoaded: string[] }[];
  adminOnlyChunks: string[];
  lighthouse: ({ path: string; runs: LighthouseRun[] } & LighthouseRun)[];
  endpoints: Record<string, EndpointSpec>;
  runs: BenchRun[];
};

type Check = { what: string; figure: string; budget: string; pass: boolean };

const MARK_START = "<!-- bench:start (written by npm run bench) -->";
const MARK_END = "<!-- bench:end -->";
/** docs/quality.md's KB: 1,000 bytes, the stricter reading. */
const KB = 1000;

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
/** autocannon measures whole milliseconds. */
const ms = (value: number) => (value < 1 ? "<1 ms" : `${Math.round(value)} ms`);
const num = (value: number) => Math.round(value).toLocaleString("en-US");
const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
const mark = (pass: boolean) => (pass ? "pass" : "**FAIL**");

const SCALE_BAR = 2;
const BARE_BAR = 0.5;
/** docs/quality.md "Speed": Lighthouse, and the Fly shape's budgets at 50 connections. */
const LIGHTHOUSE_PERFORMANCE = 98;
const LIGHTHOUSE_LCP_MS = 1800;
const FLY_MEMORY_MB = 300;

function shapeTitle(results: BenchResults, shape: ShapeId): string {
  if (shape === "host") return `unconstrained on ${results.machine.cores} cores`;
  const fly = results.flyShape;
  return `in a Fly-shaped cgroup of ${fly?.cpus ?? "?"} CPU and ${fly?.memoryMb ?? "?"} MB, no swap`;
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
}

function pagesSection(results: BenchResults, checks: Check[]): string {
  const rows = results.pages.map(({ spec, bytes, adminChunksLoaded }) => {
    const verdicts: string[] = [];
    if (spec.budget) {
      const jsPass = bytes.js <= spec.budget.jsKb * KB;
      const cssPass = bytes.css <= spec.budget.cssKb * KB;
      checks.push({
        what: `${spec.path} first-load JavaScript`,
        figure: kb(bytes.js),
        budget: `<= ${spec.budget.jsKb} KB`,
        pass: jsPass,
      });
      checks.push({
        what: `${spec.path} first-load CSS`,
        figure: kb(bytes.css),
        budget: `<= ${spec.budget.cssKb} KB`,
        pass: cssPass,
      });
      verdicts.push(`JS <= ${spec.budget.jsKb} KB: ${mark(jsPass)}`);
      verdicts.push(`CSS <= ${spec.budget.cssKb} KB: ${mark(cssPass)}`);
    }
    if (spec.as !== "admin") {
      const clean = adminChunksLoaded.length === 0;
      checks.push({
        what: `${spec.path} loads no admin-only code`,
        figure: clean ? "none" : adminChunksLoaded.join(", "),
        budget: "none",
        pass: clean,
      });
      verdicts.push(`no admin code: ${mark(clean)}`);
    }
    return [
      `\`${spec.path}\``,
      spec.as,
      kb(bytes.js),
      kb(bytes.css),
      kb(bytes.html),
      kb(bytes.images),
      verdicts.join("; ") || "(no byte budget)",
    ];
  });
  return [
    "### First-load bytes (gzip level 9)",
    "",
    table(["Page", "As", "JavaScript", "CSS", "HTML", "Images", "Budget: result"], rows),
    "",
    "Counted: the HTML and every asset it makes the browser fetch before anything is clicked",
    "(script src, module preloads and their static imports, stylesheets, images not",
    `\`loading="lazy"\`). Admin-only chunks (from the client manifest): ${
      results.adminOnlyChunks.map((c) => `\`${c.replace("/assets/", "")}\``).join(", ") || "none"
    }.`,
  ].join("\n");
}

function lighthouseSection(results: BenchResults, checks: Check[]): string {
  const rows = results.lighthouse.map((page) => {
    const pass = {
      performance: page.performance >= LIGHTHOUSE_PERFORMANCE,
      lcp: page.lcpMs <= LIGHTHOUSE_LCP_MS,
      rest: page.accessibility === 100 && page.bestPractices === 100 && page.seo === 100,
    };
    checks.push({
      what: `Lighthouse ${page.path} performance`,
      figure: String(page.performance),
      budget: `>= ${LIGHTHOUSE_PERFORMANCE}`,
      pass: pass.performance,
    });
    checks.push({
      what: `Lighthouse ${page.path} LCP`,
      figure: seconds(page.lcpMs),
      budget: `<= ${seconds(LIGHTHOUSE_LCP_MS)}`,
      pass: pass.lcp,
    });
    checks.push({
      what: `Lighthouse ${page.path} accessibility / best practices / SEO`,
      figure: `${page.accessibility} / ${page.bestPractices} / ${page.seo}`,
      budget: "100 / 100 / 100",
      pass: pass.rest,
    });
    const spread = (key: "performance") => page.runs.map((run) => run[key]).join(", ");
    return [
      `\`${page.path}\``,
      `${page.performance} (${spread("performance")})`,
      String(page.accessibility),
      String(page.bestPractices),
      String(page.seo),
      seconds(page.lcpMs),
      ms(page.tbtMs),
      page.cls.toFixed(3),
      `${mark(pass.performance)} / ${mark(pass.lcp)} / ${mark(pass.rest)}`,
    ];
  });
  const lost = results.lighthouse
    .filter((page) => page.failing.length > 0)
    .map((page) => `\`${page.path}\`: ${page.failing.join(", ")}`);
  return [
    `### Lighthouse 12, mobile preset, headless chromium (median of ${results.settings.lighthouseRuns})`,
    "",
    table(
      [
        "Page",
        "Performance (runs)",
        "Accessibility",
        "Best practices",
        "SEO",
        "LCP",
        "TBT",
        "CLS",
        `perf >= ${LIGHTHOUSE_PERFORMANCE} / LCP <= ${seconds(LIGHTHOUSE_LCP_MS)} / others 100`,
      ],
      rows,
    ),
    ...(lost.length > 0 ? ["", `Audits that cost points in any run: ${lost.join("; ")}.`] : []),
  ].join("\n");
}

/** One shape's runs at the first scale, every connection count, with their budgets. */
function loadSection(results: BenchResults, run: BenchRun, checks: Check[]): string {
  const tag = `[${run.shape}]`;
  const rows: string[][] = [];
  for (const [id, byConnections] of Object.entries(run.load)) {
    const spec = results.endpoints[id];
    const name = spec?.name ?? id;
    for (const [connections, { app, bare }] of Object.entries(byConnections)) {
      const ratio = bare ? app.rps / bare.rps : undefined;
      const verdicts: string[] = [];
      if (ratio !== undefined && spec?.json) {
        const pass = ratio >= BARE_BAR;
        checks.push({
          what: `${tag} ${name} app/bare at ${connections} connection${connections === "1" ? "" : "s"}`,
          figure: ratio.toFixed(2),
          budget: `>= ${BARE_BAR}`,
          pass,
        });
        verdicts.push(`JSON >= ${BARE_BAR}: ${mark(pass)}`);
      }
      rows.push([
        name,
        connections,
        num(app.rps),
        ms(app.p50),
        ms(app.p99),
        String(app.timeouts),
        String(app.errors),
        `${app.non2xx} (${app.serverErrors})`,
        bare ? num(bare.rps) : "",
        bare ? ms(bare.p99) : "",
        ratio === undefined ? "" : ratio.toFixed(2),
        verdicts.join("; ") || (bare ? "(reference, no bar)" : "(no bar)"),
      ]);
    }
  }
  return [
    `### Throughput and latency at ${num(run.bookings)} bookings, ${shapeTitle(results, run.shape)}: autocannon, keep-alive, ${run.duration} s per run`,
    "",
    table(
      [
        "Endpoint",
        "Connections",
        "req/s",
        "p50",
        "p99",
        "Timeouts",
        "Errors",
        "Non-2xx (5xx)",
        "Bare req/s",
        "Bare p99",
        "App/bare",
        "Budgets",
      ],
      rows,
    ),
  ].join("\n");
}

/** CPU per answer against the unit, capacity against the same bytes, open-loop latency. */
function limitsSection(results: BenchResults, checks: Check[]): string {
  const limits = results.limits;
  if (!limits) return "";
  const cpuRows = limits.cpu.map((figure) => {
    const ratio = figure.ms / figure.unitMs;
    const pass = ratio <= figure.budget;
    checks.push({
      what: `[fly] ${figure.name}: CPU per answer`,
      figure: `${ratio.toFixed(1)}x the unit`,
      budget: `<= ${figure.budget}x`,
      pass,
    });
    return [
      figure.name,
      `${figure.ms.toFixed(2)} ms`,
      `${ratio.toFixed(1)}x`,
      `<= ${figure.budget}x: ${mark(pass)}`,
    ];
  });
  const unit = limits.cpu[0]?.unitMs ?? Number.NaN;
  const capacity = limits.capacity;
  const capacityLines: string[] = [];
  if (capacity) {
    const ratio = capacity.appRps / capacity.bytesRps;
    const pass = ratio >= CAPACITY_BAR;
    checks.push({
      what: "[fly] Landing capacity at 50 connections / the same bytes from memory",
      figure: ratio.toFixed(2),
      budget: ">= 0.33",
      pass,
    });
    capacityLines.push(
      `Landing capacity at 50 connections: ${num(capacity.appRps)}/s against ${num(capacity.bytesRps)}/s from a \`node:http\` server sending the same ${kb(capacity.bytes)} (${capacity.encoding}) from memory: **${ratio.toFixed(2)}** (budget >= 0.33: ${mark(pass)}).`,
    );
  }
  const openRows = limits.openLoop.map((figure) => {
    const clean = figure.serverErrors === 0 && figure.timeouts === 0 && figure.errors === 0;
    const pass = figure.p99 <= OPEN_LOOP_P99_MS && clean;
    checks.push({
      what: `[fly] ${figure.name}: p99 at half capacity, open loop`,
      figure: `${ms(figure.p99)}, ${figure.serverErrors} 5xx, ${figure.timeouts} timeouts, ${figure.errors} errors`,
      budget: `<= ${OPEN_LOOP_P99_MS} ms, none failed`,
      pass,
    });
    return [
      figure.name,
      `${figure.rate.toFixed(1)}/s`,
      num(figure.sent),
      ms(figure.p50),
      ms(figure.p99),
      ms(figure.worst),
      ms(figure.senderLagP99),
      `${figure.serverErrors} / ${figure.timeouts} / ${figure.errors}`,
      `p99 <= ${OPEN_LOOP_P99_MS} ms, none failed: ${mark(pass)}`,
    ];
  });
  return [
    `### What people feel, ${shapeTitle(results, "fly")} (issue 28), ${limits.duration} s per run`,
    "",
    `CPU per answer: the server process's CPU time (every thread) over a run at 10 connections, divided by its answers, as browsers ask (\`Accept-Encoding: gzip, deflate, br, zstd\`). The unit: the bare server's \`/healthz\` measured the same way, ${unit.toFixed(3)} ms.`,
    "",
    table(["Answer", "CPU per answer", "Multiple of the unit", "Budget"], cpuRows),
    "",
    ...capacityLines,
    "",
    "Open loop: requests sent at a constant rate of half the capacity measured at 50 connections, each timed from when it was due (no coordinated omission).",
    "",
    table(
      [
        "Page",
        "Rate",
        "Sent",
        "p50",
        "p99",
        "Worst",
        "Sender's lag, p99",
        "5xx / timeouts / errors",
        "Budget",
      ],
      openRows,
    ),
  ].join("\n");
}

/** No 5xx in any run of a shape, at any scale. */
function serverErrorChecks(results: BenchResults, checks: Check[]): void {
  for (const shape of results.settings.shapes) {
    const serverErrors = results.runs
      .filter((run) => run.shape === shape)
      .flatMap((run) => Object.values(run.load))
      .flatMap((byConnections) => Object.values(byConnections))
      .reduce((sum, { app }) => sum + app.serverErrors, 0);
    checks.push({
      what: `[${shape}] 5xx answers in every run`,
      figure: String(serverErrors),
      budget: "0",
      pass: serverErrors === 0,
    });
  }
}

/** Budgets this run's settings left out (a shape, a connection count, Lighthouse). */
function notMeasured(results: BenchResults): string[] {
  const missing: string[] = [];
  if (!results.limits) missing.push("CPU per answer, capacity and open-loop latency (Fly shape)");
  if (!results.runs.some((run) => run.shape === "fly")) missing.push("memory in the Fly shape");
  if (results.lighthouse.length === 0) missing.push("Lighthouse");
  return missing;
}

function loadNotes(results: BenchResults): string {
  return [
    "Bare: a `node:http` server in the same run and shape running the same SQL on the same file",
    "(`scripts/bench/bare-server.ts`): no express, router, validation or rendering; in the Fly",
    "shape in a cgroup of its own, of the same size. Booking creation posts a different free slot",
    "each time, so every request books; login posts the right password (argon2 each time).",
    `Latencies are of the answered requests; a request unanswered after ${results.settings.timeoutSeconds} s is a timeout;`,
    "errors are connection errors. The other admin tabs and lists run in the main shape at",
    `${results.settings.scaleConnections} connections only, for the scale comparison below.`,
  ].join("\n");
}

function scaleSection(results: BenchResults, checks: Check[]): string {
  const [small, large] = results.runs.filter((run) => run.shape === results.settings.mainShape);
  if (!small || !large) return "";
  const c = results.settings.scaleConnections;
  const rows: string[][] = [];
  for (const [id, spec] of Object.entries(results.endpoints)) {
    const before = small.load[id]?.[c];
    const after = large.load[id]?.[c];
    if (!before || !after) continue;
    // Time per request grows by the inverse ratio of throughput at the same concurrency.
    const ratio = before.app.rps / after.app.rps;
    let verdict = "(no bar)";
    if (spec.scaleBar) {
      const pass = ratio <= SCALE_BAR;
      checks.push({
        what: `[${large.shape}] ${spec.name} at ${num(large.bookings)} vs ${num(small.bookings)} bookings`,
        figure: `${ratio.toFixed(2)}x`,
        budget: `<= ${SCALE_BAR}x`,
        pass,
      });
      verdict = mark(pass);
    }
    const bareRatio = after.bare ? (after.app.rps / after.bare.rps).toFixed(2) : "";
    rows.push([
      spec.name,
      num(before.app.rps),
      num(after.app.rps),
      ms(before.app.p99),
      ms(after.app.p99),
      `${ratio.toFixed(2)}x`,
      bareRatio,
      verdict,
    ]);
  }
  return [
    `### ${num(small.bookings)} vs ${num(large.bookings)} bookings, ${shapeTitle(results, large.shape)}, ${c} connections`,
    "",
    table(
      [
        "Endpoint",
        `req/s at ${num(small.bookings)}`,
        `req/s at ${num(large.bookings)}`,
        `p99 at ${num(small.bookings)}`,
        `p99 at ${num(large.bookings)}`,
        "Time ratio",
        `App/bare at ${num(large.bookings)}`,
        `<= ${SCALE_BAR}x`,
      ],
      rows,
    ),
    "",
    "Time ratio: how much longer a request takes at the larger scale (req/s at the smaller",
    "over req/s at the larger, same concurrency).",
  ].join("\n");
}

function memorySection(results: BenchResults, checks: Check[]): string {
  const rows = results.runs.map((run) => {
    const verdicts: string[] = [];
    if (run.cgroup) {
      const tag = `[${run.shape}] at ${num(run.bookings)} bookings`;
      const pass = run.peakRssMb <= FLY_MEMORY_MB;
      checks.push({
        what: `${tag}: the server's peak RSS`,
        figure: `${run.peakRssMb.toFixed(0)} MB`,
        budget: `<= ${FLY_MEMORY_MB} MB`,
        pass,
      });
      checks.push({
        what: `${tag}: OOM kills`,
        figure: String(run.cgroup.oomKills),
        budget: "0",
        pass: run.cgroup.oomKills === 0,
      });
      verdicts.push(
        `<= ${FLY_MEMORY_MB} MB: ${mark(pass)}`,
        `no OOM kill: ${mark(run.cgroup.oomKills === 0)}`,
      );
    }
    return [
      num(run.bookings),
      run.shape,
      `${run.peakRssMb.toFixed(0)} MB`,
      run.cgroup ? `${run.cgroup.peakMemoryMb} MB of ${run.cgroup.memoryMb} MB` : "",
      run.cgroup ? String(run.cgroup.oomKills) : "",
      verdicts.join("; ") || "(no bar)",
    ];
  });
  return [
    "### Peak memory of the server",
    "",
    table(
      [
        "Bookings",
        "Shape",
        "Peak RSS (VmHWM) after the load",
        "Cgroup peak (page cache included)",
        "OOM kills",
        "Budget",
      ],
      rows,
    ),
    "",
    "Each figure covers its own server's whole life: the first scale's main-shape run includes",
    `Lighthouse and every connection count, a later scale's only the ${results.settings.scaleConnections}-connection runs.`,
  ].join("\n");
}

function render(results: BenchResults): { markdown: string; checks: Check[] } {
  const checks: Check[] = [];
  const { machine, settings } = results;
  const sections = [
    pagesSection(results, checks),
    lighthouseSection(results, checks),
    ...results.runs
      .filter((run) => run.bookings === results.runs[0]?.bookings)
      .map((run) => loadSection(results, run, checks)),
    loadNotes(results),
    limitsSection(results, checks),
    scaleSection(results, checks),
    memorySection(results, checks),
  ];
  serverErrorChecks(results, checks);
  const failed = checks.filter((check) => !check.pass);
  const missing = notMeasured(results);
  const stamp = `${results.date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const markdown = [
    MARK_START,
    `## ${stamp}: \`${results.command}\` (latest run)`,
    "",
    `Command: \`${results.command}\` (BENCH_DURATION=${settings.duration}, BENCH_FLY_DURATION=${settings.flyDuration}, BENCH_LIGHTHOUSE_RUNS=${settings.lighthouseRuns}, BENCH_SHAPES=${settings.shapes.join(",")}, connections ${settings.connections.join(", ")}).`,
    `Machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGb} GB, Node ${machine.node}, ${machine.chromium}. Shared and noisy: compare figures within one run.`,
    "",
    `**${checks.length - failed.length} of ${checks.length} budgets pass.**${failed.length > 0 ? " Failing:" : ""}`,
    "",
    ...failed.map((f) => `- ${f.what}: ${f.figure} (budget ${f.budget})`),
    ...(failed.length > 0 ? [""] : []),
    ...(missing.length > 0 ? [`Not measured in this run: ${missing.join("; ")}.`, ""] : []),
    ...sections.flatMap((section) => [section, ""]),
    MARK_END,
  ].join("\n");
  return { markdown, checks };
}

export function printSummary(results: BenchResults): void {
  const { checks } = render(results);
  console.log("\nBudgets (docs/quality.md):");
  for (const check of checks) {
    console.log(
      `  ${check.pass ? "pass" : "FAIL"}  ${check.what}: ${check.figure} (budget ${check.budget})`,
    );
  }
  const memory = results.runs
    .map(
      (run) =>
        `${run.shape} at ${run.bookings} bookings ${run.peakRssMb.toFixed(0)} MB` +
        (run.cgroup ? ` (cgroup peak ${run.cgroup.peakMemoryMb} MB)` : ""),
    )
    .join(", ");
  console.log(`  peak server memory: ${memory}`);
  const missing = notMeasured(results);
  if (missing.length > 0) console.log(`  not measured in this run: ${missing.join("; ")}`);
  console.log(`${checks.filter((c) => c.pass).length} of ${checks.length} budgets pass.`);
}

/** Puts the run at the top of the page, replacing the previous run; history stays below. */
export function writeReport(path: string, results: BenchResults): void {
  const { markdown } = render(results);
  const page = readFileSync(path, "utf8");
  const start = page.indexOf(MARK_START);
  const end = page.indexOf(MARK_END);
  if (start !== -1 && end > start) {
    writeFileSync(path, page.slice(0, start) + markdown + page.slice(end + MARK_END.length));
  } else {
    const firstSection = page.indexOf("\n## ");
    const at = firstSection === -1 ? page.length : firstSection + 1;
    writeFileSync(path, `${page.slice(0, at)}${markdown}\n\n${page.slice(at)}`);
  }
  // The project's formatter aligns the tables, so CI's format check accepts the page as written.
  execFileSync("npx", ["biome", "format", "--write", path], { stdio: "ignore" });
}
