/**
 * Imports per layer pair: how many files of one layer import a module of another, with the
 * layers and arrows of `.dependency-cruiser.cjs` (so the two never disagree on what a layer is).
 * A pair no arrow allows is marked; `npm run lint:deps` fails on each of them.
 *
 * Usage: `npx tsx scripts/layer-imports.ts [--root <checkout>] [--json]`. `--root` counts another
 * checkout of the repository (say, an older commit unpacked with `git archive`) with this
 * checkout's layers.
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

const here = dirname(import.meta.dirname);
const config = createRequire(import.meta.url)(join(here, ".dependency-cruiser.cjs")) as {
  architecture: Architecture;
};
const { LAYERS, ARROWS, TEST } = config.architecture;
const layerPatterns = Object.entries(LAYERS).map(([name, re]) => [name, new RegExp(re)] as const);
const testPattern = new RegExp(TEST);

const rootArg = process.argv.indexOf("--root");
const root = rootArg > 0 ? (process.argv[rootArg + 1] ?? here) : here;

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

function sourceFiles(dir: string): string[] {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .map((f) => join(dir, f).split("\\").join("/"))
    .filter(
      (f) => /\.(ts|tsx)$/.test(f) && !f.endsWith(".d.ts") && statSync(join(root, f)).isFile(),
    );
}

const EXTENSIONS = ["", ".ts", ".tsx", ".js", "/index.ts", "/index.tsx"];

/** The repository path an import names, `node_modules/<package>/` for a package, or null. */
function resolve(from: string, spec: string): string | null {
  if (spec.includes("+types/") || spec.startsWith("virtual:") || spec.startsWith("node:")) {
    return null;
  }
  let base: string;
  if (spec.startsWith("#app/")) base = `app/${spec.slice(5)}`;
  else if (spec.startsWith("#db/")) base = `db/${spec.slice(4)}`;
  else if (spec.startsWith("#tests/")) return "tests/";
  else if (spec.startsWith(".")) base = relative(root, join(root, dirname(from), spec));
  else {
    const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
    return `node_modules/${name}/`;
  }
  base = base.split("\\").join("/");
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) {
      return candidate;
    }
  }
  return base;
}

type Pair = { from: string; to: string; imports: number; tests: number; files: Set<string> };
const pairs = new Map<string, Pair>();

const files = [...sourceFiles("app"), ...sourceFiles("server"), "db/schema.ts"].filter((f) =>
  existsSync(join(root, f)),
);
for (const file of files) {
  const from = layerOf(file);
  const isTest = testPattern.test(file);
  const info = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
  const targets = new Set<string>();
  for (const { fileName } of info.importedFiles) {
    const target = resolve(file, fileName);
    if (target) targets.add(target);
  }
  for (const target of targets) {
    const to = target === "tests/" ? "tests" : layerOf(target);
    // npm packages other than the server-only ones are not part of the house.
    if (to.startsWith("(node_modules/")) continue;
    const key = `${from} -> ${to}`;
    const pair = pairs.get(key) ?? { from, to, imports: 0, tests: 0, files: new Set() };
    if (isTest) pair.tests += 1;
    else pair.imports += 1;
    pair.files.add(file);
    pairs.set(key, pair);
  }
}

const order = [...Object.keys(LAYERS), "tests"];
const rank = (layer: string) => (order.includes(layer) ? order.indexOf(layer) : order.length);
const rows = [...pairs.values()]
  .filter((p) => p.from !== p.to)
  .sort(
    (a, b) => rank(a.from) - rank(b.from) || rank(a.to) - rank(b.to) || a.to.localeCompare(b.to),
  )
  .map((p) => ({
    from: p.from,
    to: p.to,
    imports: p.imports,
    tests: p.tests,
    violations:
      (allowed(p.from, p.to, false) ? 0 : p.imports) + (allowed(p.from, p.to, true) ? 0 : p.tests),
  }));

if (process.argv.includes("--json")) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const total = (key: "imports" | "tests" | "violations") => rows.reduce((s, r) => s + r[key], 0);
  console.log(`Imports per layer pair in ${root === here ? "this checkout" : root}`);
  console.log("(within a layer not shown; tests = *.test.ts files; ✗ = no arrow allows it)\n");
  console.log("| From | To | Imports | From tests | Not allowed |");
  console.log("| --- | --- | ---: | ---: | ---: |");
  for (const r of rows) {
    const mark = r.violations > 0 ? `✗ ${r.violations}` : "";
    console.log(`| ${r.from} | ${r.to} | ${r.imports} | ${r.tests} | ${mark} |`);
  }
  console.log(
    `\nAcross layers: ${total("imports")} imports, ${total("tests")} from tests; not allowed: ${total("violations")}.`,
  );
}
