import { createRequestHandler } from "@react-router/express";
import express from "express";
import { RouterContextProvider } from "react-router";
import { db } from "#app/db.server";
import type { Server } from "node:http";
import { metrics } from "#app/metrics.server";
import { startBackgroundJobs } from "#app/workflows/background.server";
import { outboxBacklog } from "#app/workflows/deliver-email.server";
import { startMetricsServer } from "./metrics";
import { env } from "#app/env.server";
import { passwordEstimatorReady } from "#app/web/passwords.server";
import { routeConsoleToLog } from "#app/log.server";
export { logger, noteRequestRoute } from "#app/log.server";
export { observeRequest } from "./observe";
import { clientAddressContext } from "#app/web/request-context.server";
import { serverRoutesContext } from "#app/web/route-target.server";

/**
 * The express app around React Router: the client address for rate limits,
 * and the proxy trust that makes request.url https behind Fly's TLS proxy (so React Router's
 * and our own origin checks see the origin the browser used).
 */
if (env.NODE_ENV === "production") routeConsoleToLog();

export const app = express();
app.disable("x-powered-by");
app.set("trust proxy", env.TRUST_PROXY);

function clientAddress(req: express.Request): string {
  // Fly sets Fly-Client-IP itself; X-Forwarded-For is client-controlled and never trusted.
  const flyIp = env.TRUST_PROXY ? req.get("Fly-Client-IP") : undefined;
  return flyIp ?? req.socket.remoteAddress ?? "unknown";
}

/**
 * A request body the app never read (a 401 or 405 answered before it) is drained once the
 * response is out. The adapter stops reading when its buffer fills, and Node parses nothing
 * more on that keep-alive connection, so the next request sent on it (a proxy reuses
 * connections) would hang. Found by tests/integration/hostile-input.test.ts.
 */
app.use((req, res, next) => {
  res.once("finish", () => {
    if (req.complete) return;
    req.removeAllListeners("data");
    req.resume();
  });
  next();
});

/**
 * No form or JSON call of the site comes near 1 MB; a bigger body would only be buffered whole
 * by request.formData() or request.json(). Refused before it is read. The Stripe webhook has its own, smaller limit.
 */
const MAX_BODY_BYTES = 1_000_000;
/** Answered before the app's security middleware, which would add these. */
const refusalHeaders = {
  Connection: "close",
  "X-Content-Type-Options": "nosniff",
  ...(env.NODE_ENV === "production"
    ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" }
    : {}),
};
app.use((req, res, next) => {
  // A body streamed without a length (chunked) could only be measured by reading it, and
  // nothing of the site sends one (browsers, Stripe and fetch with a text body all give the
  // length): it is refused as HTTP says, so the limit below cannot be walked around.
  if (req.get("Transfer-Encoding") !== undefined && req.get("Content-Length") === undefined) {
    res.status(411).set(refusalHeaders).json({ message: "Send the body with a Content-Length" });
    return;
  }
  if (Number(req.get("Content-Length") ?? 0) <= MAX_BODY_BYTES) return next();
  res.status(413).set(refusalHeaders).json({ message: "Request too large" });
});

await passwordEstimatorReady;

const loadBuild = () => import("virtual:react-router/server-build");
const productionBuild = import.meta.env.PROD ? await loadBuild() : undefined;

app.use(
  createRequestHandler({
    // Given a function, React Router rebuilds its route tables on every request (for reloads
    // in development): in production the build never changes, so it gets the module once.
    build: productionBuild ?? loadBuild,
    async getLoadContext(req) {
      const context = new RouterContextProvider();
      context.set(clientAddressContext, clientAddress(req));
      // The guards tell React Router's own 405s (a post to a page without a form) by the route
      // modules; see app/web/route-target.server.ts.
      context.set(serverRoutesContext, (productionBuild ?? (await loadBuild())).routes);
      return context;
    },
  }),
);

const stopBackgroundJobs = startBackgroundJobs(db);

metrics.watchOutbox(() => outboxBacklog(db, Date.now()));
// Kept on globalThis like the jobs: a dev reload must not bind the port a second time.
const running = globalThis as { __studioMetricsServer?: Server };
running.__studioMetricsServer ??= startMetricsServer(env.METRICS_PORT, env.METRICS_HOST);

/** Called by server.js on SIGTERM after the HTTP server stopped taking requests. */
export async function closeDatabase() {
  running.__studioMetricsServer?.close();
  await stopBackgroundJobs();
  db.$client.close();
}
