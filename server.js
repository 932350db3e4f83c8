// @ts-check
// The process entry (decision 0092). Plain JavaScript, so it runs on Node 20 without a loader.
import { existsSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import zlib from "node:zlib";
import compression from "compression";
import Negotiator from "negotiator";
import serveStatic from "serve-static";

const production = process.env.NODE_ENV === "production";
const port = Number.parseInt(process.env.PORT || "3000", 10);
const host = process.env.HOST || "0.0.0.0";

/**
 * What server.js uses of server/app.ts.
 * @typedef {import("node:http").IncomingMessage} Req
 * @typedef {import("node:http").ServerResponse} Res
 * @typedef {{
 *   handleRequest(req: Req, res: Res): void,
 *   closeDatabase(): Promise<void>,
 *   logger: import("pino").Logger,
 *   noteRequestRoute(route: string): void,
 *   observeRequest(req: Req, res: Res, next: () => void): void,
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

// Every answer (files too) goes out compressed when it is worth it: HTML, JSON, JS, CSS.
// Brotli with a 256 KB window, not the default 4 MB: the same bytes for pages under 256 KB,
// at half the CPU, the window being memory the garbage collector pays for on every answer
// (docs/benchmarks.md, issue 28). (The package's types name express's request; it reads only Node's.)
const compress = /** @type {(req: Req, res: Res, next: () => void) => void} */ (
  /** @type {unknown} */ (
    compression({
      // An answer that fits one TCP segment arrives in the same round trip either way.
      threshold: 1400,
      brotli: {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
        },
      },
    })
  )
);

/**
 * Files skip the app's security middleware: they get its two headers that matter for a file.
 * @param {Res} res
 */
function fileHeaders(res) {
  appModule?.noteRequestRoute("static");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
}

/** @type {(req: Req, res: Res) => void} */
let listener;

if (production) {
  const app = /** @type {AppModule} */ (appModule);
  // Fingerprinted assets never change; everything else in public/ may.
  const assets = serveStatic("build/client/assets", {
    immutable: true,
    maxAge: "1y",
    index: false,
    setHeaders: fileHeaders,
  });
  // The build compressed each of them once (vite.config.ts): the encoding the browser takes
  // goes out as it is, and the compression middleware leaves an encoded answer alone.
  const compressedAssets = ["br", "gzip"].map((encoding) => {
    const dir = `build/compressed/${encoding}`;
    return {
      encoding,
      names: new Set(existsSync(dir) ? readdirSync(dir) : []),
      serve: serveStatic(dir, {
        immutable: true,
        maxAge: "1y",
        index: false,
        /** @param {Res} res */
        setHeaders: (res) => {
          fileHeaders(res);
          res.setHeader("Content-Encoding", encoding);
          res.setHeader("Vary", "Accept-Encoding");
        },
      }),
    };
  });
  /** @type {(req: Req) => typeof assets} */
  const assetsFor = (req) => {
    const name = (req.url ?? "").slice(1).split("?", 1)[0] ?? "";
    const built = compressedAssets.filter((variant) => variant.names.has(name));
    const codings = [...built.map((variant) => variant.encoding), "identity"];
    const chosen = new Negotiator(req).encoding(codings, codings);
    return built.find((variant) => variant.encoding === chosen)?.serve ?? assets;
  };
  const publicFiles = serveStatic("build/client", {
    maxAge: "1h",
    index: false,
    setHeaders: fileHeaders,
  });
  // The build's files never change while it runs: a request whose first path segment names
  // none of its top-level entries (every page, .data and /api/ call, /healthz) skips the
  // disk lookup serve-static would otherwise make before the app answers.
  const publicEntries = new Set(readdirSync("build/client"));
  /** @type {(req: Req, res: Res) => void} */
  const files = (req, res) => {
    const url = req.url ?? "/";
    const entry = url.slice(1).split(/[/?]/, 1)[0] ?? "";
    if (!publicEntries.has(entry)) return app.handleRequest(req, res);
    const next = () => {
      req.url = url;
      app.handleRequest(req, res);
    };
    if (entry !== "assets" || url[7] !== "/") return publicFiles(req, res, next);
    // serve-static answers /assets/x from build/client/assets as express mounted it: the
    // path below the mount, the whole one kept for its redirects.
    Object.assign(req, { originalUrl: url });
    req.url = url.slice(7);
    assetsFor(req)(req, res, next);
  };
  listener = (req, res) =>
    app.observeRequest(req, res, () => compress(req, res, () => files(req, res)));
} else {
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  const loadApp = async () =>
    /** @type {AppModule} */ (await viteDevServer.ssrLoadModule("./server/app.ts"));
  // Loaded now for the logger (and so the database opens at start, as in production).
  appModule = await loadApp();
  /** @type {(req: Req, res: Res) => Promise<void>} */
  const toApp = async (req, res) => {
    try {
      const source = await loadApp();
      appModule = source;
      source.observeRequest(req, res, () => source.handleRequest(req, res));
    } catch (error) {
      if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
      console.error(error);
      res.statusCode = 500;
      res.end("Internal Server Error");
    }
  };
  listener = (req, res) =>
    compress(req, res, () => viteDevServer.middlewares(req, res, () => toApp(req, res)));
}

/** The app's logger (pino), loaded above in both modes. */
const logger = /** @type {AppModule} */ (appModule).logger;

const httpServer = createServer(listener);
httpServer.listen(port, host, () => {
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
