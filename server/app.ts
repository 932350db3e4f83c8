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

app.use(
  createRequestHandler({
    build: () => import("virtual:react-router/server-build"),
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
