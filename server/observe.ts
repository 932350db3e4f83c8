import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "#app/env.server";
import { logger, type RequestRecord, requestIdFrom, runWithRequest } from "#app/log.server";
import { metrics } from "#app/metrics.server";

/**
 * Knows only Node's http types, so server.js hands it every request, files too: every line
 * written meanwhile carries the request id. Never the URL (ids, query strings, tokens), no header.
 */
export function observeRequest(req: IncomingMessage, res: ServerResponse, next: () => void) {
  const started = performance.now();
  const record: RequestRecord = {
    reqId: requestIdFrom(req.headers["fly-request-id"], env.TRUST_PROXY),
    userId: undefined,
    route: undefined,
  };
  res.setHeader("X-Request-Id", record.reqId);
  res.once("close", () => {
    const elapsed = performance.now() - started;
    const ms = Math.round(elapsed * 10) / 10;
    const route = record.route ?? "unrouted";
    metrics.httpRequestDuration.observe(
      { method: req.method, route, status: res.statusCode },
      elapsed / 1000,
    );
    // An answer cut off (the client went away) still gets its line, marked.
    const aborted = !res.writableFinished;
    logger.info(
      {
        reqId: record.reqId,
        userId: record.userId,
        method: req.method,
        route,
        status: res.statusCode,
        ms,
        ...(aborted ? { aborted } : {}),
      },
      "request",
    );
  });
  runWithRequest(record, next);
}
