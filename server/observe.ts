import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "#app/env.server";
import { logger, type RequestRecord, requestIdFrom, runWithRequest } from "#app/log.server";
import { metrics } from "#app/metrics.server";

/**
 * The request log, in one place that knows only Node's http types (no express): server.js
 * hands every request to it first. It gives the request its id (also the `X-Request-Id` of
 * the answer), runs the rest of the handling with that id as the current request (so every
 * line written meanwhile carries it), and writes one line when the answer is out: method,
 * route pattern, status, duration (and the same into the latency histogram). Never the URL (ids, query strings, tokens), never a header.
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
