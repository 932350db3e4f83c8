import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { inspect } from "node:util";
import pino from "pino";
import { env } from "#app/env.server";

/**
 * The server's one log: a JSON line on stdout per request and per notable event (pino), read
 * as text in development (pino-pretty, a dev dependency: only NODE_ENV=development loads it).
 * A line written while a request runs carries its request id (`reqId`) and, once the sign-in
 * was read, the user id (`userId`). See docs/decisions/0084-json-logs-with-a-request-id.md.
 *
 * What never goes in: cookies, passwords, card numbers, e-mail bodies, sign-in ids. Nothing
 * here logs a request's headers or body; the paths below are removed should a caller pass an
 * object that holds one of these fields anyway.
 */
export const REDACTED_PATHS = [
  "password",
  "currentPassword",
  "newPassword",
  "cookie",
  "sessionId",
  "signInId",
  "token",
  "secret",
  "cardNumber",
  "html",
  "text",
  "body",
  "headers",
  "*.password",
  "*.currentPassword",
  "*.newPassword",
  "*.cookie",
  "*.sessionId",
  "*.signInId",
  "*.token",
  "*.secret",
  "*.cardNumber",
  "*.html",
  "*.text",
  "*.body",
  "*.headers",
  'headers["set-cookie"]',
  "headers.cookie",
  "headers.authorization",
];

/** What the log knows of the request being answered; one object per request, no more. */
export type RequestRecord = {
  reqId: string;
  userId: number | undefined;
  /** The route pattern that answered ("/admin/bookings/:id"), "static" for a file. */
  route: string | undefined;
};

const requests = new AsyncLocalStorage<RequestRecord>();

export function createLogger(
  options: { level: string; pretty: boolean },
  destination?: pino.DestinationStream,
) {
  return pino(
    {
      level: options.level,
      base: undefined,
      // Epoch milliseconds: the cheapest timestamp, and what log tools parse.
      timestamp: pino.stdTimeFunctions.epochTime,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      mixin() {
        const record = requests.getStore();
        if (!record) return {};
        return record.userId === undefined
          ? { reqId: record.reqId }
          : { reqId: record.reqId, userId: record.userId };
      },
      ...(options.pretty && !destination
        ? {
            transport: {
              target: "pino-pretty",
              options: { translateTime: "SYS:HH:MM:ss", singleLine: true },
            },
          }
        : {}),
    },
    destination,
  );
}

export const logger = createLogger({
  level: env.LOG_LEVEL,
  pretty: env.NODE_ENV === "development",
});

/**
 * Error logging without leaks: drizzle wraps driver errors in a message that quotes the SQL
 * and its parameters (which may hold a password hash or an e-mail), and stack traces show
 * internals, so only the innermost error's name and message are written.
 */
export function describeError(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof Error) return `${current.name}: ${current.message.split("\n")[0]}`;
  return "Non-error thrown";
}

/** An error line: what failed (`context`) and `describeError`'s words, never the error object. */
export function logError(context: string, error: unknown) {
  logger.error({ error: describeError(error) }, context);
}

/**
 * A notable event ("booking created", "payment recorded", "e-mail failed", "rate limit hit",
 * "login failed"): `event` names it, `fields` are ids and counts, never personal text.
 */
export function logEvent(
  event: string,
  fields: Record<string, string | number | boolean | null | undefined> = {},
  level: "info" | "warn" = "info",
) {
  logger[level]({ event, ...fields }, event);
}

/**
 * Sends what a library prints with console.* (React Router warns of a malformed URL this way)
 * into the log as JSON lines, errors reduced by `describeError`: production's every line is
 * JSON and none holds a stack. server/app.ts calls it in production.
 */
export function routeConsoleToLog() {
  const text = (args: unknown[]) =>
    args
      .map((arg) =>
        arg instanceof Error
          ? describeError(arg)
          : typeof arg === "string"
            ? arg
            : inspect(arg, { depth: 2, breakLength: Number.POSITIVE_INFINITY }),
      )
      .join(" ");
  console.error = (...args: unknown[]) => {
    const line = text(args);
    // Node prints its process warnings ("(node:12) MaxListenersExceededWarning: ...") here.
    if (line.startsWith("(node:")) logger.warn({ console: "warning" }, line);
    else logger.error({ console: "error" }, line);
  };
  console.warn = (...args: unknown[]) => logger.warn({ console: "warn" }, text(args));
  console.log = (...args: unknown[]) => logger.info({ console: "log" }, text(args));
  console.info = console.log;
  console.debug = (...args: unknown[]) => logger.debug({ console: "debug" }, text(args));
}

// --- the request being answered ---------------------------------------------------------------

const SAFE_REQUEST_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The id of a request: Fly's (Fly-Request-Id) when the app runs behind Fly's proxy
 * (`TRUST_PROXY`) and it looks like an id (letters, digits, dashes, at most 64), so a line can be
 * found from the proxy's log; else a new one of ours. A caller's X-Request-Id is never taken:
 * anyone could pick the id of another request's lines, or flood the log under one id.
 */
export function requestIdFrom(
  flyRequestId: string | string[] | undefined,
  behindProxy: boolean,
): string {
  if (behindProxy && typeof flyRequestId === "string" && SAFE_REQUEST_ID.test(flyRequestId)) {
    return flyRequestId;
  }
  return randomUUID();
}

/** Runs `next` (the rest of the request's handling) with `record` as the current request. */
export function runWithRequest<T>(record: RequestRecord, next: () => T): T {
  return requests.run(record, next);
}

/** The signed-in user of the current request, for its log lines (user-context.server.ts). */
export function noteRequestUser(userId: number) {
  const record = requests.getStore();
  if (record) record.userId = userId;
}

/** Names the route answering the current request (the root middleware, server.js for files). */
export function noteRequestRoute(route: string) {
  const record = requests.getStore();
  if (record) record.route = route;
}
