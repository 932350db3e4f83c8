// @ts-check
/**
 * The layered house (README "Architecture", decision 0073), checked on every import:
 * `npm run lint:deps`.
 *
 * An import passes when an arrow below allows it (dependency-cruiser's `allowed` list: anything
 * not listed fails as `not-in-allowed`), and no `forbidden` rule catches it. Each layer may also
 * import its own files, npm packages and Node built-ins, except the server-only packages, which
 * only the database's layers reach. `scripts/layer-imports.ts` counts the imports per layer pair
 * with the same layers and arrows, read from this file.
 */

/** Where each layer lives (paths from the repository root). */
const LAYERS = {
  routes: "^app/(routes/|root[.]tsx$|entry[.]server[.]tsx$|routes[.]ts$)",
  "components/ui": "^app/components/ui/",
  components: "^app/components/(?!ui/)",
  web: "^app/web/",
  workflows: "^app/workflows/",
  // The composition module: reads the outside world's settings and picks each adapter.
  adapters: "^app/adapters[.]server[.]ts$",
  integrations: "^app/integrations/",
  emails: "^app/emails/",
  models: "^app/models/",
  domain: "^app/domain/",
  // The ground floor: the process's infrastructure.
  "db.server": "^app/db[.]server[.]ts$",
  "env.server": "^app/env[.]server[.]ts$",
  "log.server": "^app/log[.]server[.]ts$",
  "metrics.server": "^app/metrics[.]server[.]ts$",
  "secrets.server": "^app/secrets[.]server[.]ts$",
  "db/schema": "^db/schema[.]ts$",
  // The process entry (server.js hands requests to it) sits on top, beside the routes.
  server: "^server/",
  // Style sheets a route module or a component imports (Vite bundles them).
  styles: "^app/.*[.]css$",
  // drizzle and the SQLite driver: the database's own layers only.
  sqlite: "(^|/)node_modules/(drizzle-orm|better-sqlite3)/",
};

/** The integrations that talk to one provider; the interfaces beside them are shared. */
const CONCRETE_ADAPTERS =
  "^app/integrations/(payments/(sandbox|stripe)|file-storage-(local|s3)|smtp|chat)[.]server[.]ts$";
/** The API's answers: their schemas and the `to*Json` functions that build them. */
const API_JSON = "^app/routes/api/json/";
/** The upload protocols' libraries (tus, multipart): app/web/file-uploads/ speaks them. */
const UPLOAD_PROTOCOLS = "(^|/)node_modules/(@tus/server|busboy)/";

/** Every arrow points down. A layer not listed on the right may not be imported. */
const ARROWS = {
  routes: [
    "routes",
    "components",
    "components/ui",
    "web",
    "workflows",
    "adapters",
    "models",
    "emails",
    "domain",
    "db.server",
    "env.server",
    "log.server",
    "styles",
  ],
  components: ["components", "components/ui", "domain", "styles"],
  "components/ui": ["components/ui", "domain", "styles"],
  web: ["web", "models", "domain", "db.server", "env.server", "log.server"],
  workflows: [
    "workflows",
    "adapters",
    "models",
    "integrations",
    "emails",
    "domain",
    "db.server",
    "db/schema",
    "sqlite",
    "env.server",
    "log.server",
    "metrics.server",
  ],
  adapters: ["integrations", "env.server"],
  integrations: ["integrations", "domain"],
  emails: ["emails", "domain"],
  models: ["models", "domain", "db.server", "db/schema", "sqlite", "secrets.server"],
  domain: ["domain"],
  "db.server": ["db/schema", "env.server", "metrics.server", "secrets.server", "sqlite"],
  // Hashing and sealing of secrets at rest, with the keys from the settings.
  "secrets.server": ["env.server"],
  "env.server": [],
  // The log reads its level and mode from the settings.
  "log.server": ["env.server"],
  "metrics.server": [],
  "db/schema": ["domain", "sqlite"],
  server: ["server", "web", "workflows", "db.server", "env.server", "log.server", "metrics.server"],
};

/** What a layer reaches through its arrows: a test (`*.test.ts`) may import all of it. */
function below(layer) {
  const seen = new Set([layer]);
  const pending = [layer];
  while (pending.length > 0) {
    for (const next of ARROWS[pending.pop()] ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      pending.push(next);
    }
  }
  return [...seen];
}

const paths = (layers) => layers.map((l) => LAYERS[l]);
const TEST = "[.]test[.]tsx?$";
/** A layer's test files: beside a one-file layer (app/env.server.test.ts), or anywhere in a folder. */
const testsOf = (layer) =>
  LAYERS[layer].endsWith("[.]ts$")
    ? LAYERS[layer].replace(/\[\.\]ts\$$/, TEST)
    : `${LAYERS[layer]}.*${TEST}`;
const PACKAGES = [
  "npm",
  "npm-dev",
  "npm-optional",
  "npm-peer",
  "npm-bundled",
  "npm-no-pkg",
  "core",
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No cycles: every arrow points one way.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-server-in-the-browser",
      severity: "error",
      comment:
        "components and domain run in the browser: no *.server module, nothing from db/, no drizzle or SQLite driver, not even `import type`.",
      from: { path: paths(["components", "components/ui", "domain"]) },
      to: {
        path: ["[.]server[.]tsx?$", "^db/", LAYERS.sqlite],
      },
    },
    {
      name: "no-node-in-the-browser",
      severity: "error",
      comment:
        "components and domain run in the browser (domain has no I/O): no Node built-in (their tests run in Node and may read files).",
      from: { path: paths(["components", "components/ui", "domain"]), pathNot: TEST },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "domain-pure-libraries",
      severity: "error",
      comment:
        "domain is pure rules shared with the browser: of npm packages, only zod and date-fns (tests may use their tools).",
      from: { path: LAYERS.domain, pathNot: TEST },
      to: {
        dependencyTypes: PACKAGES.filter((type) => type !== "core"),
        pathNot: "(^|/)node_modules/(zod|date-fns|@date-fns/tz)/",
      },
    },
    {
      name: "no-parent-relative-import",
      severity: "error",
      comment:
        "Import through #app/* and #db/*, never `../` (only the generated ./+types/ files are reached relatively).",
      from: { path: "^(.+)/[^/]+$" },
      to: {
        dependencyTypes: ["local"],
        dependencyTypesNot: ["aliased"],
        pathNot: "^$1/",
      },
    },
    {
      name: "adapters-picked-in-one-place",
      severity: "error",
      comment:
        "Only app/adapters.server.ts imports a concrete adapter (Stripe, the sandbox, S3, the disk store, SMTP, Intercom): the rest speak to the interfaces and ask it for the chosen one.",
      from: { pathNot: [LAYERS.adapters, TEST] },
      to: { path: CONCRETE_ADAPTERS },
    },
    {
      name: "api-json-with-the-api-routes",
      severity: "error",
      comment:
        "The API's answers are built by the routes alone, from app/routes/api/json/: models hand out rows and views, and web, workflows and domain answer no API shape.",
      from: { path: "^app/", pathNot: LAYERS.routes },
      to: { path: API_JSON },
    },
    {
      name: "models-hand-out-rows",
      severity: "error",
      comment:
        "Models read and write rows: no schema of a body or an answer (zod: the API's shapes live with its routes), nothing from the routes or the web.",
      from: { path: LAYERS.models, pathNot: TEST },
      to: {
        path: ["^app/routes/", LAYERS.web, "^app/domain/zod[.]ts$", "(^|/)node_modules/zod/"],
      },
    },
    {
      name: "upload-protocols-in-the-web",
      severity: "error",
      comment:
        "tus and multipart parsing live in app/web/file-uploads/, which the routes hand the files workflow's steps: a route stays thin. (The file storages implement tus's data store.)",
      from: { pathNot: ["^app/web/file-uploads/", LAYERS.integrations, TEST] },
      to: { path: UPLOAD_PROTOCOLS },
    },
    {
      name: "holds-expired-by-the-sweep",
      severity: "error",
      comment:
        "A GET writes nothing: reads show an expired hold as swept (app/domain/holds.ts), and only workflows (the background sweep, a booking's own transaction) run the expiry.",
      from: { path: "^app/", pathNot: ["^app/workflows/", TEST] },
      to: { path: "^app/workflows/expire-holds[.]server[.]ts$" },
    },
    {
      name: "not-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing is a typo or a missing package.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  allowed: [
    ...Object.entries(ARROWS).map(([from, to]) => ({
      comment: `${from} -> ${to.join(", ")}`,
      from: { path: LAYERS[from], pathNot: TEST },
      to: { path: paths(to) },
    })),
    ...Object.keys(ARROWS).map((from) => ({
      comment: `a test in ${from} may import anything below it, and tests/`,
      from: { path: testsOf(from) },
      to: { path: [...paths(below(from)), "^tests/"] },
    })),
    {
      comment: "npm packages and Node built-ins (the server-only ones are arrows of their own)",
      from: {},
      to: { dependencyTypes: PACKAGES, pathNot: LAYERS.sqlite },
    },
  ],
  allowedSeverity: "error",
  options: {
    // tests/ holds the integration and browser suites, which may import anything: not followed.
    doNotFollow: { path: ["node_modules", "^tests/"] },
    // React Router's generated route types (./+types/<route>, reached through tsconfig's rootDirs)
    // and the server build Vite provides: nothing of ours to check, and not files on disk.
    exclude: { path: ["^build/", "^db/migrations/", "[+]types/", "^virtual:"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
// Read by scripts/layer-imports.ts. Not enumerable: dependency-cruiser's validator rejects keys
// it does not know.
Object.defineProperty(module.exports, "architecture", { value: { LAYERS, ARROWS, TEST } });
