// @ts-check
// The process entry: static files, the React Router app (server/app.ts), graceful shutdown.
// Plain JavaScript so it runs on Node 20 without a TypeScript loader.
import { readdirSync } from "node:fs";
import compression from "compression";
import express from "express";

const production = process.env.NODE_ENV === "production";
const port = Number.parseInt(process.env.PORT || "3000", 10);
const host = process.env.HOST || "0.0.0.0";

/**
 * What server.js uses of server/app.ts.
 * @typedef {{
 *   app: import("express").Express,
 *   closeDatabase(): Promise<void>,
 *   logger: import("pino").Logger,
 *   noteRequestRoute(route: string): void,
 *   observeRequest(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse, next: () => void): void,
 * }} AppModule
 */
/** @type {AppModule | undefined} */
let appModule;

if (production) {
  // Import the app before listening: configuration errors and migrations happen now.
  const buildPath = "./build/server/index.js";
  try {
    appModule = await import(buildPath);
  } catch (error) {
    // Configuration and migration errors are for the operator: the message, not a stack. The
    // logger may be what failed to load, so the line is written by hand, in its format.
    const msg = error instanceof Error ? error.message : String(error);
    process.stdout.write(`${JSON.stringify({ level: 60, time: Date.now(), msg })}\n`);
    process.exit(1);
  }
}

const server = express();
server.disable("x-powered-by");
// First: every answer (files too) gets its request id and its line in the log.
if (appModule) {
  const { observeRequest } = appModule;
  server.use((req, res, next) => observeRequest(req, res, next));
}
// Before the static files, so JavaScript and CSS go out compressed too.
server.use(compression());

/**
 * Files are answered before the app's security middleware runs: they get the two headers of
 * it that matter for a file (a browser must not sniff a script out of a text file, and HTTPS
 * is remembered from any answer).
 * @param {import("node:http").ServerResponse} res
 */
function fileHeaders(res) {
  appModule?.noteRequestRoute("static");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
}

if (production) {
  // Fingerprinted assets never change; everything else in public/ may.
  server.use(
    "/assets",
    express.static("build/client/assets", {
      immutable: true,
      maxAge: "1y",
      index: false,
      setHeaders: fileHeaders,
    }),
  );
  const publicFiles = express.static("build/client", {
    maxAge: "1h",
    index: false,
    setHeaders: fileHeaders,
  });
  // The build's files never change while it runs: a request whose first path segment names
  // none of its top-level entries (every page, .data and /api/ call, /healthz) skips the
  // disk lookup express.static would otherwise make before the app answers.
  const publicEntries = new Set(readdirSync("build/client"));
  server.use((req, res, next) =>
    publicEntries.has(req.path.split("/", 2)[1] ?? "") ? publicFiles(req, res, next) : next(),
  );
  server.use(/** @type {AppModule} */ (appModule).app);
} else {
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  const loadApp = async () =>
    /** @type {AppModule} */ (await viteDevServer.ssrLoadModule("./server/app.ts"));
  // Loaded now for the logger (and so the database opens at start, as in production).
  appModule = await loadApp();
  server.use(viteDevServer.middlewares);
  server.use(async (req, res, next) => {
    try {
      const source = await loadApp();
      appModule = source;
      return source.observeRequest(req, res, () => source.app(req, res, next));
    } catch (error) {
      if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
      next(error);
    }
  });
}

/** The app's logger (pino), loaded above in both modes. */
const logger = /** @type {AppModule} */ (appModule).logger;

const httpServer = server.listen(port, host, () => {
  logger.info(
    `Studio booking site listening on http://${host === "0.0.0.0" ? "localhost" : host}:${port}`,
  );
});
// Keep-alive longer than Fly's proxy idle timeout, so it never reuses a closed socket.
httpServer.keepAliveTimeout = 65_000;

let shuttingDown = false;
function shutdown(/** @type {string} */ signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info(`${signal} received: finishing in-flight requests`);
  // Stop accepting connections, let running requests finish, then close SQLite cleanly
  // (checkpointing the WAL). Force the exit if a client holds a connection open.
  httpServer.close(async () => {
    // Background jobs (holds, e-mail) finish their current run before SQLite closes.
    await appModule?.closeDatabase();
    process.exit(0);
  });
  httpServer.closeIdleConnections();
  setTimeout(() => process.exit(1), 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
