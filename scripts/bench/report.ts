import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import type { LighthouseRun } from "./lighthouse";
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

type Pair = { app: LoadResult; bare?: LoadResult };

export type BenchResults = {
  date: Date;
  command: string;
  settings: {
    duration: number;
    lighthouseRuns: number;
    connections: number[];
    scaleConnections: number;
  };
  machine: Machine;
  pages: { spec: PageSpec; bytes: PageBytes; adminChunksLoaded: string[] }[];
  adminOnlyChunks: string[];
  lighthouse: ({ path: string; runs: LighthouseRun[] } & LighthouseRun)[];
  endpoints: Record<string, EndpointSpec>;
  scales: { bookings: number; load: Record<string, Record<number, Pair>>; peakRssMb: number }[];
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
const mark = (pass: boolean) => (pass ? "pass" : "**FAIL**");

const SCALE_BAR = 2;
const BARE_BAR = 0.5;

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
      performance: page.performance >= 95,
      rest: page.accessibility === 100 && page.bestPractices === 100 && page.seo === 100,
    };
    checks.push({
      what: `Lighthouse ${page.path} performance`,
      figure: String(page.performance),
      budget: ">= 95",
      pass: pass.performance,
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
      `${(page.lcpMs / 1000).toFixed(1)} s`,
      ms(page.tbtMs),
      page.cls.toFixed(3),
      `${mark(pass.performance)} / ${mark(pass.rest)}`,
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
        "perf >= 95 / others 100",
      ],
      rows,
    ),
    ...(lost.length > 0 ? ["", `Audits that cost points in any run: ${lost.join("; ")}.`] : []),
  ].join("\n");
}

function loadSection(results: BenchResults, checks: Check[]): string {
  const first = results.scales[0];
  if (!first) return "";
  const rows: string[][] = [];
  for (const [id, byConnections] of Object.entries(first.load)) {
    const spec = results.endpoints[id];
    for (const [connections, { app, bare }] of Object.entries(byConnections)) {
      const ratio = bare ? app.rps / bare.rps : undefined;
      let verdict = bare ? "(reference, no bar)" : "(no bare baseline)";
      if (ratio !== undefined && spec?.json) {
        const pass = ratio >= BARE_BAR;
        checks.push({
          what: `${spec.name} app/bare at ${connections} connection${connections === "1" ? "" : "s"}`,
          figure: ratio.toFixed(2),
          budget: `>= ${BARE_BAR}`,
          pass,
        });
        verdict = mark(pass);
      }
      rows.push([
        spec?.name ?? id,
        connections,
        num(app.rps),
        ms(app.p50),
        ms(app.p99),
        String(app.failures),
        bare ? num(bare.rps) : "",
        bare ? ms(bare.p50) : "",
        bare ? ms(bare.p99) : "",
        ratio === undefined ? "" : ratio.toFixed(2),
        verdict,
      ]);
    }
  }
  return [
    `### Throughput and latency at ${num(first.bookings)} bookings (autocannon, keep-alive, ${results.settings.duration} s per run)`,
    "",
    table(
      [
        "Endpoint",
        "Connections",
        "App req/s",
        "App p50",
        "App p99",
        "App non-2xx",
        "Bare req/s",
        "Bare p50",
        "Bare p99",
        "App/bare",
        `JSON >= ${BARE_BAR}`,
      ],
      rows,
    ),
    "",
    "Bare: a `node:http` server in the same run running the same SQL on the same file",
    "(`scripts/bench/bare-server.ts`): no express, router, validation or rendering. Booking",
    "creation posts a different free slot each time, so every request books.",
  ].join("\n");
}

function scaleSection(results: BenchResults, checks: Check[]): string {
  const [small, large] = results.scales;
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
        what: `${spec.name} at ${num(large.bookings)} vs ${num(small.bookings)} bookings`,
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
    `### ${num(small.bookings)} vs ${num(large.bookings)} bookings (${c} connections)`,
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

function memorySection(results: BenchResults): string {
  return [
    "### Peak memory of the server",
    "",
    table(
      ["Bookings", "Peak RSS (VmHWM) after the load"],
      results.scales.map((s) => [num(s.bookings), `${s.peakRssMb.toFixed(0)} MB`]),
    ),
    "",
    "The first scale's figure covers Lighthouse and every connection count, the second's only",
    `the ${results.settings.scaleConnections}-connection runs: compare each with its own load.`,
  ].join("\n");
}

function render(results: BenchResults): { markdown: string; checks: Check[] } {
  const checks: Check[] = [];
  const { machine, settings } = results;
  const sections = [
    pagesSection(results, checks),
    lighthouseSection(results, checks),
    loadSection(results, checks),
    scaleSection(results, checks),
    memorySection(results),
  ];
  const failed = checks.filter((check) => !check.pass);
  const stamp = `${results.date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const markdown = [
    MARK_START,
    `## ${stamp}: \`${results.command}\` (latest run)`,
    "",
    `Command: \`${results.command}\` (BENCH_DURATION=${settings.duration}, BENCH_LIGHTHOUSE_RUNS=${settings.lighthouseRuns}, connections ${settings.connections.join(", ")}).`,
    `Machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGb} GB, Node ${machine.node}, ${machine.chromium}. Shared and noisy: compare figures within one run.`,
    "",
    `**${checks.length - failed.length} of ${checks.length} budgets pass.**${failed.length > 0 ? " Failing:" : ""}`,
    "",
    ...failed.map((f) => `- ${f.what}: ${f.figure} (budget ${f.budget})`),
    ...(failed.length > 0 ? [""] : []),
    ...sections.flatMap((section) => [section, ""]),
    MARK_END,
  ].join("\n");
  return { markdown, checks };
}

export function printSummary(results: BenchResults): void {
  const { checks } = render(results);
  console.log("\nBudgets (quality.md):");
  for (const check of checks) {
    console.log(
      `  ${check.pass ? "pass" : "FAIL"}  ${check.what}: ${check.figure} (budget ${check.budget})`,
    );
  }
  const scales = results.scales
    .map((s) => `${s.bookings} bookings ${s.peakRssMb.toFixed(0)} MB`)
    .join(", ");
  console.log(`  peak server memory: ${scales}`);
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
