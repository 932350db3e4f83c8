import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { count } from "drizzle-orm";
import {
  createRequestHandler,
  RouterContextProvider,
  type ServerBuild,
  type UNSAFE_AssetsManifest as AssetsManifest,
  UNSAFE_withComponentProps,
  UNSAFE_withErrorBoundaryProps,
  UNSAFE_withHydrateFallbackProps,
} from "react-router";
import { afterAll, beforeAll } from "vitest";
import { bookings, signIns, users } from "#db/schema";
import { openDatabaseFile, type TestDatabase } from "#tests/factories/database";
import { ensureStudioAdmin } from "#tests/factories/user";
import { checkApiResponse } from "#tests/setup/contract";
import { appLog } from "#tests/setup/app-log";
import { TEST_DATA_ENCRYPTION_KEY } from "#tests/setup/data-key";
import { auditLine, testPasswords } from "#tests/setup/log-audit";
import { INTEGRATION_SESSION_SECRET, type TestServer } from "#tests/setup/server";

/**
 * The app in the test's own process, for what one route answers (tests/routes): React Router's
 * request handler over the route modules of app/routes.ts, read from source, with the load
 * context and settings the production server gives it. A `fetch` to `url` is answered by it,
 * checked against the OpenAPI document as the integration suite checks it; anything else goes
 * to the network. What happens around the handler (server.js and server/app.ts: static files,
 * compression, body limits, the request log, background jobs) is for the HTTP suites in
 * tests/integration.
 */
export const IN_PROCESS_URL = "http://in-process.test";

const COUNTED = { users, signIns, bookings };
type App = Omit<TestServer, "stop"> & {
  /** The handler's own answer, as to a raw request: no contract check, no redirect followed. */
  answer(request: Request): Promise<Response>;
};

/**
 * The app for this file's tests, with the production server's settings (set by
 * tests/setup/app-in-process-env.ts) and `extraEnv`. Call it at the top of the file: the app's
 * modules load in beforeAll, after it.
 */
export function appForThisFile(extraEnv: Record<string, string> = {}): App {
  Object.assign(process.env, extraEnv);

  let handle: ((request: Request) => Promise<Response>) | undefined;
  let reader: TestDatabase | undefined;
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    const { env, parseEnv } = await import("#app/env.server");
    if (!isDeepStrictEqual(env, parseEnv(process.env))) {
      throw new Error("The app loaded before appForThisFile() gave it its settings");
    }
    handle = await requestHandler();
    openRegistrationInApp();
    reader = openDatabaseFile(env.DATABASE_PATH, { readonly: true });
    globalThis.fetch = (input, init) => {
      const request = new Request(input, init);
      return request.url.startsWith(`${IN_PROCESS_URL}/`)
        ? fetchInProcess(request)
        : realFetch(input, init);
    };
  });

  afterAll(async () => {
    globalThis.fetch = realFetch;
    const problems = auditLog(reader);
    reader?.$client.close();
    if (problems.length > 0) {
      throw new Error(`The app's log leaks or is not JSON:\n${problems.slice(0, 30).join("\n")}`);
    }
  });

  /** The answer as fetch reads it: a stored answer comes compressed (app/web/shared-pages.server.ts). */
  async function decoded(response: Response): Promise<Response> {
    const coding = response.headers.get("Content-Encoding");
    if (coding !== "br" && coding !== "gzip") return response;
    const bytes = Buffer.from(await response.clone().arrayBuffer());
    const body = coding === "br" ? brotliDecompressSync(bytes) : gunzipSync(bytes);
    return new Response(body, { status: response.status, headers: response.headers });
  }

  /** What fetch does with an answer: follows redirects unless told not to. */
  async function fetchInProcess(first: Request): Promise<Response> {
    if (!handle) throw new Error("The app is not loaded yet");
    let request = first;
    for (let hops = 0; hops < 20; hops++) {
      const response = await handle(request.clone());
      await checkApiResponse(request.method, new URL(request.url), await decoded(response));
      const location = response.headers.get("Location");
      if (
        request.redirect !== "follow" ||
        !location ||
        response.status < 300 ||
        response.status > 399
      ) {
        return hops === 0 ? response : redirected(response, request.url);
      }
      const keepsBody = response.status === 307 || response.status === 308;
      request = new Request(new URL(location, request.url), {
        method: keepsBody ? request.method : request.method === "HEAD" ? "HEAD" : "GET",
        headers: request.headers,
        body: keepsBody ? await request.arrayBuffer() : undefined,
      });
      if (!keepsBody) {
        request.headers.delete("Content-Type");
        request.headers.delete("Content-Length");
      }
    }
    throw new Error(`Too many redirects from ${first.url}`);
  }

  const current = () => {
    if (!reader) throw new Error("The app is not loaded yet");
    return reader;
  };
  const answer = (request: Request) => {
    if (!handle) throw new Error("The app is not loaded yet");
    return handle(request);
  };
  return {
    url: IN_PROCESS_URL,
    get dbPath() {
      return String(process.env.DATABASE_PATH);
    },
    get filesDir() {
      return String(process.env.FILES_DIR);
    },
    get db() {
      return current();
    },
    count: (table) => current().select({ n: count() }).from(COUNTED[table]).get()?.n ?? 0,
    output: () => appLog.lines.join(""),
    answer,
  };
}

/** A followed redirect's answer, marked as fetch marks it. */
function redirected(response: Response, url: string): Response {
  Object.defineProperties(response, {
    redirected: { value: true },
    url: { value: url },
  });
  return response;
}

/** Registration is open once the studio has its first admin, as after a deploy. */
function openRegistrationInApp() {
  const writer = openDatabaseFile(String(process.env.DATABASE_PATH));
  try {
    ensureStudioAdmin(writer);
  } finally {
    writer.$client.close();
  }
}

/**
 * What the server hands React Router (server/app.ts): the build, read from source here, and
 * for each request the load context, behind the visitors' stored pages. The client is 127.0.0.1, as over loopback.
 */
async function requestHandler(): Promise<(request: Request) => Promise<Response>> {
  const build = await serverBuildFromSource();
  const [
    { clientAddressContext, safeMethodContext },
    { serverRoutesContext },
    { logError },
    { answeringDatabaseBusy },
    { servingStoredPages },
  ] = await Promise.all([
    import("#app/web/request-context.server"),
    import("#app/web/route-target.server"),
    import("#app/log.server"),
    import("#app/web/database-busy.server"),
    import("#app/web/shared-pages.server"),
  ]);
  const handleFetch = servingStoredPages(
    createRequestHandler(answeringDatabaseBusy(build), "production"),
    () => build.assets.version,
  );
  return async (request) => {
    const context = new RouterContextProvider();
    context.set(clientAddressContext, "127.0.0.1");
    context.set(safeMethodContext, request.method === "GET" || request.method === "HEAD");
    context.set(serverRoutesContext, build.routes);
    try {
      return await handleFetch(request, context);
    } catch (error) {
      logError("request handling", error);
      return new Response("Internal Server Error", {
        status: 500,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
  };
}

const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const APP_DIR = join(PROJECT_ROOT, "app");

/** The server build React Router's Vite plugin would make, from the route modules as they are. */
async function serverBuildFromSource(): Promise<ServerBuild> {
  const [{ default: table }, config, root, entry] = await Promise.all([
    import("#app/routes"),
    import(/* @vite-ignore */ join(PROJECT_ROOT, "react-router.config.ts")),
    import("#app/root"),
    import("#app/entry.server"),
  ]);
  const routes: ServerBuild["routes"] = {
    root: { id: "root", path: "", module: asBuilt(root) },
  };
  const add = async (entries: RouteConfigEntry[], parentId: string) => {
    for (const entry of entries) {
      const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
      const module = asBuilt(await import(/* @vite-ignore */ join(APP_DIR, entry.file)));
      routes[id] = {
        id,
        parentId,
        path: entry.path,
        index: entry.index,
        caseSensitive: entry.caseSensitive,
        module,
      };
      if (entry.children) await add(entry.children, id);
    }
  };
  await add(table as RouteConfigEntry[], "root");
  return {
    entry: { module: entry },
    routes,
    assets: assetsManifest(routes),
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: config.default.future,
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as ServerBuild;
}

type RouteModule = ServerBuild["routes"][string] extends infer R
  ? R extends { module: infer M }
    ? M
    : never
  : never;

/** A route module as the Vite plugin builds it: its components get their props from the router. */
function asBuilt(module: Record<string, unknown>): RouteModule {
  const wrapped: Record<string, unknown> = { ...module };
  const wrap = (name: string, withProps: (component: never) => unknown) => {
    if (typeof module[name] === "function") wrapped[name] = withProps(module[name] as never);
  };
  wrap("default", UNSAFE_withComponentProps);
  wrap("ErrorBoundary", UNSAFE_withErrorBoundaryProps);
  wrap("HydrateFallback", UNSAFE_withHydrateFallbackProps);
  return wrapped as unknown as RouteModule;
}

/** The browser's side of the build, named but never served: pages link to scripts not tested here. */
function assetsManifest(routes: ServerBuild["routes"]): AssetsManifest {
  const entries = Object.values(routes).map((route) => {
    const module = (route?.module ?? {}) as Record<string, unknown>;
    const id = route?.id ?? "";
    return [
      id,
      {
        id,
        parentId: route?.parentId,
        path: route?.path,
        index: route?.index,
        caseSensitive: route?.caseSensitive,
        hasAction: "action" in module,
        hasLoader: "loader" in module,
        hasClientAction: "clientAction" in module,
        hasClientLoader: "clientLoader" in module,
        hasClientMiddleware: "clientMiddleware" in module,
        hasDefaultExport: "default" in module,
        hasErrorBoundary: "ErrorBoundary" in module,
        module: `/assets/${id}.js`,
        imports: [],
        css: [],
      },
    ];
  });
  return {
    version: "in-process",
    url: "/assets/manifest-in-process.js",
    entry: { module: "/assets/entry.client.js", imports: [], css: [] },
    routes: Object.fromEntries(entries),
  } as unknown as AssetsManifest;
}

/** The log audit of tests/setup/log-audit.ts, on this file's lines and sessions. */
function auditLog(reader: TestDatabase | undefined): string[] {
  const forbidden = new Set([
    ...testPasswords(),
    INTEGRATION_SESSION_SECRET,
    TEST_DATA_ENCRYPTION_KEY,
  ]);
  const storedIds = new Set(
    (reader?.select({ id: signIns.id }).from(signIns).all() ?? []).map((row) => row.id),
  );
  for (const id of storedIds) forbidden.add(id);
  return appLog.lines.flatMap((line, index) =>
    auditLine(line.trimEnd(), forbidden, storedIds).map(
      (problem) => `line ${index + 1}: ${problem}`,
    ),
  );
}
