/**
 * Imports per layer pair: how many files of one layer import a module of another, with the
 * layers and arrows of `.dependency-cruiser.cjs` (so the two never disagree on what a layer is).
 * A pair no arrow allows is counted as not allowed; `npm run lint:deps` fails on each of them.
 *
 * Usage: `npm run layer-imports -- [--root <checkout>] [--before <checkout>] [--json]`.
 * `--root` counts another checkout (default: this one); `--before` puts a second checkout's
 * counts beside it, e.g. an older commit unpacked with
 * `git archive <commit> | tar -x -C /tmp/before`. Both are counted with this checkout's layers.
 *
 * Counted: every distinct (file, imported module) pair in app/, server/ and db/schema.ts,
 * `import type` and `export ... from` included. Tests (`*.test.ts`) are counted apart: they may
 * import anything below their layer. npm packages are left out except the server-only ones
 * (drizzle-orm, better-sqlite3: the `sqlite` layer).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

type Architecture = {
  LAYERS: Record<string, string>;
  ARROWS: Record<string, string[]>;
  TEST: string;
};
type Row = { from: string; to: string; imports: number; tests: number; violations: number };

const here = dirname(import.meta.dirname);
const config = createRequire(import.meta.url)(join(here, ".dependency-cruiser.cjs")) as {
  architecture: Architecture;
};
const { LAYERS, ARROWS, TEST } = config.architecture;
const layerPatterns = Object.entries(LAYERS).map(([name, re]) => [name, new RegExp(re)] as const);
const testPattern = new RegExp(TEST);

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
}

function layerOf(path: string): string {
  // A test belongs to the layer of the file it tests (app/env.server.test.ts to env.server).
  const subject = path.replace(/\.test(\.tsx?)$/, "$1");
  for (const [name, re] of layerPatterns) if (re.test(subject)) return name;
  return `(${path})`;
}

function below(layer: string): Set<string> {
  const seen = new Set([layer]);
  const pending = [layer];
  while (pending.length > 0) {
    for (const next of ARROWS[pending.pop() ?? ""] ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        pending.push(next);
      }
    }
  }
  return seen;
}

function allowed(from: string, to: string, isTest: boolean): boolean {
  if (isTest) return to === "tests" || below(from).has(to);
  return from === to || (ARROWS[from] ?? []).includes(to);
}

const EXTENSIONS = ["", ".ts", ".tsx", ".js", "/index.ts", "/index.tsx"];

function count(root: string): Row[] {
  const isFile = (path: string) =>
    existsSync(join(root, path)) && statSync(join(root, path)).isFile();
  const sourceFiles = (dir: string) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
          .map((f) => join(dir, f).split("\\").join("/"))
          .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith(".d.ts") && isFile(f))
      : [];

  /** The repository path an import names, `node_modules/<package>/` for a package, or null. */
  const resolve = (from: string, spec: string): string | null => {
    if (spec.includes("+types/") || spec.startsWith("virtual:") || spec.startsWith("node:")) {
      return null;
    }
    let base: string;
    if (spec.startsWith("#app/")) base = `app/${spec.slice(5)}`;
    else if (spec.startsWith("#db/")) base = `db/${spec.slice(4)}`;
    else if (spec.startsWith("#tests/")) return "tests/";
    else if (spec.startsWith(".")) base = relative(root, join(root, dirname(from), spec));
    else {
      const parts = spec.split("/");
      const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
      return `node_modules/${name}/`;
    }
    base = base.split("\\").join("/");
    return EXTENSIONS.map((ext) => base + ext).find(isFile) ?? base;
  };

  const pairs = new Map<string, Omit<Row, "violations">>();
  const files = [...sourceFiles("app"), ...sourceFiles("server"), "db/schema.ts"].filter(isFile);
  for (const file of files) {
    const from = layerOf(file);
    const isTest = testPattern.test(file);
    const info = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
    const targets = new Set(info.importedFiles.map((f) => resolve(file, f.fileName)));
    for (const target of targets) {
      if (target === null) continue;
      const to = target === "tests/" ? "tests" : layerOf(target);
      // npm packages other than the server-only ones are not part of the house.
      if (to.startsWith("(node_modules/")) continue;
      const key = `${from} -> ${to}`;
      const pair = pairs.get(key) ?? { from, to, imports: 0, tests: 0 };
      if (isTest) pair.tests += 1;
      else pair.imports += 1;
      pairs.set(key, pair);
    }
  }
  return [...pairs.values()]
    .filter((p) => p.from !== p.to)
    .map((p) => ({
      ...p,
      violations:
        (allowed(p.from, p.to, false) ? 0 : p.imports) +
        (allowed(p.from, p.to, true) ? 0 : p.tests),
    }));
}

const order = [...Object.keys(LAYERS), "tests"];
const rank = (layer: string) => (order.includes(layer) ? order.indexOf(layer) : order.length);
const byLayers = (a: Row, b: Row) =>
  rank(a.from) - rank(b.from) || rank(a.to) - rank(b.to) || a.to.localeCompare(b.to);
const sum = (rows: Row[], key: "imports" | "tests" | "violations") =>
  rows.reduce((total, r) => total + r[key], 0);

const root = argument("--root") ?? here;
const beforeRoot = argument("--before");
const rows = count(root).sort(byLayers);
const before = beforeRoot ? count(beforeRoot) : null;

if (process.argv.includes("--json")) {
  console.log(JSON.stringify(before ? { before, after: rows } : rows, null, 2));
} else if (before) {
  const empty = (from: string, to: string): Row => ({
    from,
    to,
    imports: 0,
    tests: 0,
    violations: 0,
  });
  const key = (r: Row) => `${r.from} -> ${r.to}`;
  const then = new Map(before.map((r) => [key(r), r]));
  const now = new Map(rows.map((r) => [key(r), r]));
  const all = [...rows, ...before.filter((r) => !now.has(key(r)))].sort(byLayers);
  console.log(
    `Imports per layer pair: ${beforeRoot} (before) and ${root === here ? "this checkout" : root} (after)`,
  );
  console.log("(imports, with those from tests in brackets; within a layer not shown)\n");
  console.log("| From | To | Before | After | Not allowed before | Not allowed after |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: |");
  for (const r of all) {
    const b = then.get(key(r)) ?? empty(r.from, r.to);
    const a = now.get(key(r)) ?? empty(r.from, r.to);
    const mark = (v: number) => (v > 0 ? `✗ ${v}` : "");
    console.log(
      `| ${r.from} | ${r.to} | ${b.imports} (${b.tests}) | ${a.imports} (${a.tests}) | ${mark(b.violations)} | ${mark(a.violations)} |`,
    );
  }
  console.log(
    `\nAcross layers: ${sum(before, "imports")} -> ${sum(rows, "imports")} imports; not allowed: ${sum(before, "violations")} -> ${sum(rows, "violations")}.`,
  );
} else {
  console.log(`Imports per layer pair in ${root === here ? "this checkout" : root}`);
  console.log("(within a layer not shown; tests = *.test.ts files; ✗ = no arrow allows it)\n");
  console.log("| From | To | Imports | From tests | Not allowed |");
  console.log("| --- | --- | ---: | ---: | ---: |");
  for (const r of rows) {
    const mark = r.violations > 0 ? `✗ ${r.violations}` : "";
    console.log(`| ${r.from} | ${r.to} | ${r.imports} | ${r.tests} | ${mark} |`);
  }
  console.log(
    `\nAcross layers: ${sum(rows, "imports")} imports, ${sum(rows, "tests")} from tests; not allowed: ${sum(rows, "violations")}.`,
  );
}
