import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { PROJECT_ROOT } from "./processes";

/**
 * First-load bytes of a page: its server-rendered HTML and every asset that HTML makes the
 * browser fetch before anything is clicked (scripts, module preloads and the modules they
 * import statically, stylesheets, eagerly loaded images), each gzipped at level 9.
 */
export type PageBytes = {
  path: string;
  html: number;
  js: number;
  css: number;
  images: number;
  assets: string[];
};

type Kind = "js" | "css" | "images";

const ATTRIBUTES = /([\w:-]+)\s*=\s*"([^"]*)"/g;

function attributes(tag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [, name, value] of tag.matchAll(ATTRIBUTES)) {
    if (name && value !== undefined) result[name.toLowerCase()] = value.replaceAll("&amp;", "&");
  }
  return result;
}

/** Same-origin asset paths the HTML loads eagerly. */
function referencedAssets(html: string): Set<string> {
  const found = new Set<string>();
  const add = (url: string | undefined) => {
    if (url?.startsWith("/")) found.add(url.split("#")[0]?.split("?")[0] ?? url);
  };
  for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) add(attributes(tag).src);
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const attrs = attributes(tag);
    const rel = attrs.rel?.toLowerCase() ?? "";
    if (rel === "modulepreload" || rel === "stylesheet") add(attrs.href);
    if (rel === "preload" && (attrs.as === "image" || attrs.as === "script")) add(attrs.href);
  }
  for (const [tag] of html.matchAll(/<img\b[^>]*>/g)) {
    const attrs = attributes(tag);
    if (attrs.loading !== "lazy") add(attrs.src);
  }
  // React Router's inline bootstrap imports the route modules.
  for (const [, body] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const [, url] of (body ?? "").matchAll(
      /import\s*(?:[\w*{}\s,$]*from\s*)?["'](\/[^"']+)["']/g,
    )) {
      add(url);
    }
  }
  return found;
}

/** Static imports inside a built module (minified: `import{a as b}from"./x.js"`). */
function staticImports(code: string, from: string): string[] {
  const base = from.slice(0, from.lastIndexOf("/") + 1);
  const result: string[] = [];
  for (const [, spec] of code.matchAll(
    /(?:^|[;}\s])import\s*(?:[\w*{}\s,$]*from\s*)?["']([^"']+\.js)["']/g,
  )) {
    if (!spec) continue;
    result.push(spec.startsWith("./") ? base + spec.slice(2) : spec);
  }
  return result;
}

function kindOf(path: string): Kind | null {
  if (path.endsWith(".js")) return "js";
  if (path.endsWith(".css")) return "css";
  if (/\.(png|jpe?g|webp|avif|gif|svg|ico)$/.test(path)) return "images";
  return null;
}

const gzipped = (data: Buffer | string) => gzipSync(data, { level: 9 }).length;

/** The built file behind a URL path (what express.static serves). */
function builtFile(path: string): Buffer {
  return readFileSync(join(PROJECT_ROOT, "build", "client", decodeURIComponent(path)));
}

export async function measurePage(baseUrl: string, path: string, cookie?: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    headers: cookie ? { Cookie: cookie } : {},
    redirect: "manual",
  });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  const html = await response.text();
  const pending = [...referencedAssets(html)];
  const seen = new Set<string>();
  const bytes: PageBytes = { path, html: gzipped(html), js: 0, css: 0, images: 0, assets: [] };
  while (pending.length > 0) {
    const asset = pending.pop() ?? "";
    if (seen.has(asset)) continue;
    seen.add(asset);
    const kind = kindOf(asset);
    if (!kind) continue;
    const content = builtFile(asset);
    bytes[kind] += gzipped(content);
    if (kind === "js") pending.push(...staticImports(content.toString("utf8"), asset));
  }
  bytes.assets = [...seen].sort();
  return bytes;
}

/**
 * The client chunks only admin routes use, from React Router's client manifest: each admin
 * route's module and imports, minus anything the root, the entry or any other route needs.
 */
export function adminOnlyChunks(isAdminRoute: (id: string) => boolean): Set<string> {
  const manifestDir = join(PROJECT_ROOT, "build", "client", "assets");
  const file = readdirManifest(manifestDir);
  const text = readFileSync(join(manifestDir, file), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("=") + 1).replace(/;\s*$/, "")) as {
    entry: { module: string; imports: string[] };
    routes: Record<string, { id: string; module: string; imports?: string[]; css?: string[] }>;
  };
  const admin = new Set<string>();
  const shared = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  for (const route of Object.values(manifest.routes)) {
    const files = [route.module, ...(route.imports ?? []), ...(route.css ?? [])];
    for (const f of files) (isAdminRoute(route.id) ? admin : shared).add(f);
  }
  for (const f of shared) admin.delete(f);
  return admin;
}

function readdirManifest(dir: string): string {
  const file = readdirSync(dir).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("No client manifest in build/client/assets");
  return file;
}
