import { createRequestHandler } from "@react-router/express";
import express from "express";
import { RouterContextProvider } from "react-router";
import { db } from "../app/db.server";
import { startBackgroundJobs } from "../app/services/background.server";
import { env } from "../app/services/env.server";
import { clientAddressContext } from "../app/services/request-context.server";

/**
 * The express app around React Router: the client address for rate limits,
 * and the proxy trust that makes request.url https behind Fly's TLS proxy (so React Router's
 * and our own origin checks see the origin the browser used).
 */
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
 * by request.formData() or request.json(). Refused before it is read (browsers always send a
 * Content-Length for such bodies). The Stripe webhook has its own, smaller limit.
 */
const MAX_BODY_BYTES = 1_000_000;
app.use((req, res, next) => {
  if (Number(req.get("Content-Length") ?? 0) <= MAX_BODY_BYTES) return next();
  res.status(413).set("Connection", "close").json({ message: "Request too large" });
});

const loadBuild = () => import("virtual:react-router/server-build");

app.use(
  createRequestHandler({
    // Given a function, React Router rebuilds its route tables on every request (for reloads
    // in development): in production the build never changes, so it gets the module once.
    build: import.meta.env.PROD ? await loadBuild() : loadBuild,
    getLoadContext(req) {
      const context = new RouterContextProvider();
      context.set(clientAddressContext, clientAddress(req));
      return context;
    },
  }),
);

const stopBackgroundJobs = startBackgroundJobs(db);

/** Called by server.js on SIGTERM after the HTTP server stopped taking requests. */
export async function closeDatabase() {
  await stopBackgroundJobs();
  db.$client.close();
}
