import autocannon from "autocannon";

/**
 * One autocannon run (keep-alive connections, no pipelining): requests per second and the
 * latency percentiles. `body` makes a fresh body per request, for writes that must not collide.
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
  /** Answers other than 2xx, plus connection errors and timeouts: should be 0. */
  failures: number;
};

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
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
