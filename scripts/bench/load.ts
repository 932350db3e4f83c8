import autocannon from "autocannon";

/**
 * One autocannon run (keep-alive connections, no pipelining): requests per second, the latency
 * percentiles of the answered requests, and what went wrong. `body` makes a fresh body per
 * request, for writes that must not collide.
 */
export type LoadTarget = {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: () => string;
};

export type LoadResult = {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Answers other than 2xx (the 5xx among them counted again in `serverErrors`). */
  non2xx: number;
  serverErrors: number;
  /** Requests unanswered after TIMEOUT_SECONDS (not in the percentiles). */
  timeouts: number;
  /** Connection errors other than timeouts. */
  errors: number;
};

/** autocannon's own default: a request unanswered this long counts as a timeout. */
export const TIMEOUT_SECONDS = 10;

export async function load(
  baseUrl: string,
  target: LoadTarget,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const { body } = target;
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    pipelining: 1,
    timeout: TIMEOUT_SECONDS,
    requests: [
      {
        method: target.method,
        path: target.path,
        headers: target.headers,
        ...(body ? { setupRequest: (request) => ({ ...request, body: body() }) } : {}),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    serverErrors: result["5xx"],
    timeouts: result.timeouts,
    // autocannon counts each timeout as an error too.
    errors: result.errors - result.timeouts,
  };
}
