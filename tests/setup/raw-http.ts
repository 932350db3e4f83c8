import http from "node:http";

/**
 * A raw HTTP client for hostile requests: fetch would normalise `..` and `%2e` in paths, refuse
 * some bodies and add headers before anything reaches the server; this sends what it is given.
 */

export type RawRequest = {
  method: string;
  /** Sent byte for byte: whatever the generator made of it, the server sees. */
  path: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  /** Stream the body without a Content-Length (Transfer-Encoding: chunked). */
  chunked?: boolean;
};
export type Reply = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });

/** Lets the test worker exit: keep-alive sockets would otherwise stay open. */
export function closeConnections() {
  agent.destroy();
}

/** A request that gets no answer within this time is a hang, reported as a failure. */
export const HANG_MS = 15_000;

export function send(
  baseUrl: string,
  request: RawRequest,
  through: http.Agent = agent,
): Promise<Reply> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent: through,
        host: hostname,
        port,
        method: request.method,
        path: request.path,
        headers: {
          ...request.headers,
          ...(request.body === undefined || request.chunked
            ? {}
            : { "Content-Length": String(Buffer.byteLength(request.body)) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          });
        });
        res.on("error", reject);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${HANG_MS} ms (hang)`));
    }, HANG_MS);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}

/** A short description of a request for failure messages (bodies cut, they can be megabytes). */
export function describeRequest(request: RawRequest & { actor?: string }): string {
  const body =
    request.body === undefined
      ? ""
      : ` body(${Buffer.byteLength(request.body)} B)=${JSON.stringify(Buffer.from(request.body).toString("utf8").slice(0, 300))}`;
  const type = request.headers?.["Content-Type"];
  return `${request.actor ?? ""} ${request.method} ${request.path.slice(0, 300)}${type ? ` [${type}]` : ""}${body}`;
}
