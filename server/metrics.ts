import { createServer, type Server } from "node:http";
import { logError, logger } from "#app/log.server";
import { metrics } from "#app/metrics.server";

/**
 * On its own port, which no [http_service] exposes: Fly's scraper reaches it over the private
 * network, the public never does. A port that cannot be bound is logged and the site serves on.
 */
export function startMetricsServer(port: number, host: string): Server | undefined {
  if (port === 0) return undefined;
  const server = createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found\n");
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { "Content-Type": metrics.registry.contentType }).end(text),
      (error: unknown) => {
        logError("metrics", error);
        res.writeHead(500, { "Content-Type": "text/plain" }).end("Metrics failed\n");
      },
    );
  });
  const listen = (at: string) =>
    server.listen(port, at, () => logger.info(`Metrics on http://${at}:${port}/metrics`));
  server.on("error", (error: NodeJS.ErrnoException) => {
    // "::" (every address, IPv6 and IPv4) on a host without IPv6: every IPv4 address instead.
    if (host === "::" && error.code === "EAFNOSUPPORT" && !server.listening) {
      host = "0.0.0.0";
      listen(host);
      return;
    }
    logError(`metrics server on port ${port}`, error);
  });
  listen(host);
  // The metrics server never keeps the process alive (shutdown waits for the site only).
  server.unref();
  return server;
}
