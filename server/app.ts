import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import {
  createReadableStreamFromReadable,
  writeReadableStreamToWritable,
} from "@react-router/node";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { db } from "#app/db.server";
import { metrics } from "#app/metrics.server";
import { startBackgroundJobs } from "#app/workflows/background.server";
import { outboxBacklog } from "#app/workflows/deliver-email.server";
import { startMetricsServer } from "./metrics";
import { env } from "#app/env.server";
import { passwordEstimatorReady } from "#app/web/passwords.server";
import { logError, noteRequestRoute, routeConsoleToLog } from "#app/log.server";
export { logger, noteRequestRoute } from "#app/log.server";
export { observeRequest } from "./observe";
import { clientAddressContext, safeMethodContext } from "#app/web/request-context.server";
import { answeringDatabaseBusy } from "#app/web/database-busy.server";
import { serverRoutesContext } from "#app/web/route-target.server";
import { servingStoredPages, storedPageAnswer } from "#app/web/shared-pages.server";
import { livenessProbeAnswer } from "#app/web/liveness.server";
import { startInTurn } from "#app/web/request-turns.server";

/**
 * The React Router app as a plain `node:http` request listener (decision 0092): body limits,
 * client address, and the one conversion to a Fetch `Request` and back.
 */
if (env.NODE_ENV === "production") routeConsoleToLog();

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(",", 1)[0]?.trim() || undefined;
}

function clientAddress(req: IncomingMessage): string {
  // Fly sets Fly-Client-IP itself; X-Forwarded-For is client-controlled and never trusted.
  const flyIp = env.TRUST_PROXY ? firstValue(req.headers["fly-client-ip"]) : undefined;
  return flyIp ?? req.socket.remoteAddress ?? "unknown";
}

/**
 * Behind Fly's TLS proxy (TRUST_PROXY) the forwarded protocol, so origin checks see the origin the
 * browser used. X-Forwarded-Host is never read: an origin check against it passes any site that
 * names itself.
 */
function requestUrl(req: IncomingMessage): string {
  const host = (req.headers.host ?? "").split(/[\\/?#@]/, 1)[0] || "localhost";
  const forwardedProto = env.TRUST_PROXY ? firstValue(req.headers["x-forwarded-proto"]) : undefined;
  const protocol = forwardedProto ?? ("encrypted" in req.socket ? "https" : "http");
  return `${protocol}://${host}${req.url ?? "/"}`;
}

function toRequest(req: IncomingMessage, res: ServerResponse): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  // Aborted when the client goes away before the answer is out: loaders and the render stop.
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(requestUrl(req), {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: createReadableStreamFromReadable(req), duplex: "half" } : {}),
  } as RequestInit);
}

/** A one-chunk body (every JSON answer) is one `end` with its length, so compression applies. */
async function send(res: ServerResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [key, value] of response.headers) res.appendHeader(key, value);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const first = await reader.read();
  if (first.done) {
    res.end();
    return;
  }
  const second = await reader.read();
  if (second.done) {
    // (Compression, when it applies, takes the length off again.)
    res.setHeader("Content-Length", first.value.byteLength);
    res.end(first.value);
    return;
  }
  reader.releaseLock();
  res.write(first.value);
  res.write(second.value);
  await writeReadableStreamToWritable(response.body, res);
}

/** Refused before it is read: request.formData() would buffer it whole. */
const MAX_BODY_BYTES = 1_000_000;
/** Answered before the app's security middleware, which would add these. */
const refusalHeaders = {
  Connection: "close",
  "Content-Type": "application/json; charset=utf-8",
  "X-Content-Type-Options": "nosniff",
  ...(env.NODE_ENV === "production"
    ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" }
    : {}),
};

function refuse(res: ServerResponse, status: number, message: string) {
  res.writeHead(status, refusalHeaders);
  res.end(JSON.stringify({ message }));
}

/** Bodies of up to MAX_FILE_GB, counted by their route (docs/product.md "Session files"). */
const FILE_UPLOAD_PATH = /^\/api\/admin\/bookings\/\d+\/files(?:\/[^/?#]+)?(?:\?.*)?$/;

function isFileUpload(req: IncomingMessage): boolean {
  return (req.method === "POST" || req.method === "PATCH") && FILE_UPLOAD_PATH.test(req.url ?? "");
}

/** The client is still sending: the connection closes lingering, so it reads the answer. */
function refusedBody(req: IncomingMessage, res: ServerResponse): boolean {
  if (isFileUpload(req)) return false;
  const length = req.headers["content-length"];
  // Without a length (chunked) a body could only be measured by reading it, and nothing of the
  // site sends one: refused as HTTP says, so the limit cannot be walked around.
  if (req.headers["transfer-encoding"] !== undefined && length === undefined) {
    closeAfterAnswer(res, req.socket);
    refuse(res, 411, "Send the body with a Content-Length");
    return true;
  }
  if (Number(length ?? 0) <= MAX_BODY_BYTES) return false;
  closeAfterAnswer(res, req.socket);
  refuse(res, 413, "Request too large");
  return true;
}

await passwordEstimatorReady;

const loadBuild = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;
const productionBuild = import.meta.env.PROD ? await loadBuild() : undefined;
// Given a function, React Router rebuilds its route tables on every request (for reloads in
// development): in production the build never changes, so it gets the module once.
const handleFetch = servingStoredPages(
  createRequestHandler(
    productionBuild
      ? answeringDatabaseBusy(productionBuild)
      : () => loadBuild().then(answeringDatabaseBusy),
  ),
  async () => (productionBuild ?? (await loadBuild())).assets.version,
);

async function loadContext(req: IncomingMessage): Promise<RouterContextProvider> {
  const context = new RouterContextProvider();
  context.set(clientAddressContext, clientAddress(req));
  context.set(safeMethodContext, req.method === "GET" || req.method === "HEAD");
  // The guards tell React Router's own 405s (a post to a page without a form) by the route
  // modules; see app/web/route-target.server.ts.
  context.set(serverRoutesContext, (productionBuild ?? (await loadBuild())).routes);
  return context;
}

export function handleRequest(req: IncomingMessage, res: ServerResponse): void {
  // A body the app never read (a 401 answered first) is drained after the answer: otherwise the
  // next request on that keep-alive connection would hang (found by hostile-input.test.ts).
  res.once("finish", () => {
    if (req.complete) return;
    req.removeAllListeners("data");
    req.resume();
  });
  if (refusedBody(req, res)) return;
  if (isLivenessProbe(req)) {
    answerSafely(req, res);
    return;
  }
  const stored = storedPage(req);
  if (stored) {
    res.statusCode = stored.status;
    for (const [name, value] of stored.headers) res.setHeader(name, value);
    if (stored.body) res.end(stored.body);
    else res.end();
    return;
  }
  startInTurn(() => {
    // A client that left while its request waited gets no render.
    if (!req.socket.destroyed) answerSafely(req, res);
  });
}

function storedPage(req: IncomingMessage) {
  if (!productionBuild) return null;
  try {
    return storedPageAnswer(
      productionBuild.assets.version,
      req.method ?? "",
      req.url ?? "",
      req.headers,
    );
  } catch (error) {
    // The app's own path answers it, and answers the error as it answers any.
    logError("stored page", error);
    return null;
  }
}

function answerSafely(req: IncomingMessage, res: ServerResponse): void {
  answer(req, res).catch((error: unknown) => {
    logError("request handling", error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
    res.end("Internal Server Error");
  });
}

/** Fly's liveness check (fly.toml), answered without React Router: see liveness.server.ts. */
function isLivenessProbe(req: IncomingMessage): boolean {
  return (
    (req.method === "GET" || req.method === "HEAD") && /^\/healthz(?:\?|$)/.test(req.url ?? "")
  );
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let request: Request;
  try {
    request = toRequest(req, res);
  } catch {
    // A Host header that makes no URL.
    res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
    res.end("Bad Request");
    return;
  }
  if (isLivenessProbe(req)) {
    noteRequestRoute("/healthz");
    await send(res, await livenessProbeAnswer(request));
    return;
  }
  const response = await handleFetch(request, await loadContext(req));
  if (isFileUpload(req) && !req.complete) closeAfterAnswer(res, req.socket);
  await send(res, response);
}

/**
 * An upload answered before its body was read would otherwise be drained to its end, gigabytes
 * perhaps. Its answer says `Connection: close` and the socket closes lingering: the server ends
 * its side and reads on for a moment, discarding, so a client sending a modest body still reads
 * the answer, and closing at once would reset it.
 */
const LINGER_MS = 5_000;
const LINGER_BYTES = 16 * 1024 ** 2;

function closeAfterAnswer(res: ServerResponse, socket: Socket) {
  res.setHeader("Connection", "close");
  // Node ends a connection whose answer said close with `destroySoon` (end, then destroy once
  // the answer is flushed): this socket lingers instead.
  socket.destroySoon = () => {
    socket.end();
    let read = 0;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    socket.on("data", (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BYTES) socket.destroy();
    });
  };
}

const stopBackgroundJobs = startBackgroundJobs(db);

metrics.watchOutbox(() => outboxBacklog(db, Date.now()));
// Kept on globalThis like the jobs: a dev reload must not bind the port a second time.
const running = globalThis as { __studioMetricsServer?: Server };
running.__studioMetricsServer ??= startMetricsServer(env.METRICS_PORT, env.METRICS_HOST);

export async function closeDatabase() {
  running.__studioMetricsServer?.close();
  await stopBackgroundJobs();
  db.$client.close();
}
