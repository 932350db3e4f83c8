/**
 * The browser's share of the build, read from `build/client` after `npm run build`:
 *
 * - per page, the JavaScript its first load fetches (the entry, then every route module from the
 *   root down to the page, each with the static imports React Router's client manifest lists),
 *   gzipped at level 9 like `scripts/bench/pages.ts` counts it; plus the admin-only chunks;
 * - a scan of every client chunk for server code: drizzle, the schema's table definitions,
 *   better-sqlite3; and of every page's first load for tus-js-client (decision 0100). It exits
 *   1 when one is found, so CI can run it after the build.
 *
 * Usage: `npx tsx scripts/client-js.ts [--json]`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

type ManifestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  hasDefaultExport: boolean;
  module: string;
  imports?: string[];
};
type Manifest = {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
};

const CLIENT = join(import.meta.dirname, "..", "build", "client");
const ASSETS = join(CLIENT, "assets");

/**
 * What server code looks like once minified: drizzle's symbols and the schema's SQL table names
 * survive minification as strings.
 */
const SERVER_MARKERS = [
  /drizzle:/,
  /\bsqliteTable\b/,
  /better-sqlite3/,
  /"(?:booking_status_counts|email_outbox|technical_assistance_requests|processed_payment_events|sales_rollup|booking_history|blocked_times|booking_services)"/,
];

function readManifest(): Manifest {
  const file = readdirSync(ASSETS).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file)
    throw new Error("No client manifest in build/client/assets: run `npm run build` first");
  const text = readFileSync(join(ASSETS, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("=") + 1).replace(/;\s*$/, "")) as Manifest;
}

const sizes = new Map<string, number>();
function gzipSize(asset: string): number {
  let size = sizes.get(asset);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(CLIENT, asset)), { level: 9 }).length;
    sizes.set(asset, size);
  }
  return size;
}

function urlOf(manifest: Manifest, route: ManifestRoute): string {
  const parts: string[] = [];
  for (
    let r: ManifestRoute | undefined = route;
    r;
    r = r.parentId ? manifest.routes[r.parentId] : undefined
  ) {
    if (r.path) parts.unshift(r.path);
  }
  return `/${parts.join("/")}`.replace(/\/+/g, "/");
}

function firstLoad(manifest: Manifest, route: ManifestRoute): Set<string> {
  const files = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  for (
    let r: ManifestRoute | undefined = route;
    r;
    r = r.parentId ? manifest.routes[r.parentId] : undefined
  ) {
    files.add(r.module);
    for (const f of r.imports ?? []) files.add(f);
  }
  return files;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const total = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + gzipSize(f), 0);

const manifest = readManifest();
const isAdmin = (route: ManifestRoute) => urlOf(manifest, route).startsWith("/admin");
const pages = Object.values(manifest.routes)
  .filter((r) => r.hasDefaultExport && r.id !== "root" && !r.id.includes("/api/"))
  .map((r) => {
    const files = firstLoad(manifest, r);
    return { id: r.id, url: urlOf(manifest, r), js: total(files), files: [...files].sort() };
  })
  .sort((a, b) => a.url.localeCompare(b.url) || a.id.localeCompare(b.id));

// Chunks only admin routes load (the same rule as `adminOnlyChunks` in scripts/bench/pages.ts).
const adminOnly = new Set<string>();
const shared = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
for (const r of Object.values(manifest.routes)) {
  for (const f of [r.module, ...(r.imports ?? [])]) (isAdmin(r) ? adminOnly : shared).add(f);
}
for (const f of shared) adminOnly.delete(f);
const allAdmin = new Set(pages.filter((p) => p.url.startsWith("/admin")).flatMap((p) => p.files));

const offenders: { file: string; markers: string[] }[] = [];
for (const name of readdirSync(ASSETS).filter((n) => n.endsWith(".js"))) {
  const code = readFileSync(join(ASSETS, name), "utf8");
  const markers = SERVER_MARKERS.flatMap((m) => code.match(m)?.[0] ?? []);
  if (markers.length > 0) offenders.push({ file: name, markers });
}

// The resumable uploader's library loads on its first use on the admin booking page (decision
// 0100): no page may fetch it with its first load, least of all the landing and customer pages.
const TUS_MARKER = /Tus-Resumable/;
for (const p of pages) {
  const tus = p.files.filter((f) => TUS_MARKER.test(readFileSync(join(CLIENT, f), "utf8")));
  if (tus.length > 0)
    offenders.push({ file: `${p.url} first load: ${tus.join(", ")}`, markers: ["tus-js-client"] });
}

if (process.argv.includes("--json")) {
  console.log(
    JSON.stringify(
      {
        pages: pages.map(({ id, url, js }) => ({ id, url, js })),
        adminOnly: { files: [...adminOnly].sort(), js: total(adminOnly) },
        allAdmin: total(allAdmin),
        offenders,
      },
      null,
      2,
    ),
  );
} else {
  console.log("| Page | Route | First-load JS (gzip 9) |\n| --- | --- | --- |");
  for (const p of pages) console.log(`| \`${p.url}\` | ${p.id} | ${kb(p.js)} |`);
  console.log(
    `\nAdmin-only chunks: ${kb(total(adminOnly))} (${[...adminOnly].map((f) => f.replace("/assets/", "")).join(", ")})`,
  );
  console.log(`Every chunk any admin page loads first, together: ${kb(total(allAdmin))}`);
  if (offenders.length === 0) console.log("\nServer code in client chunks: none");
  else {
    console.log("\nServer code in client chunks:");
    for (const o of offenders) console.log(`- ${o.file}: ${o.markers.join(", ")}`);
  }
}
if (offenders.length > 0) process.exitCode = 1;
