import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { inspect } from "node:util";
import pino from "pino";
import { env } from "#app/env.server";

/**
 * The one log: a JSON line per request and per notable event, carrying the request id and user
 * (docs/decisions/0084-json-logs-with-a-request-id.md). Never cookies, passwords, card numbers,
 * e-mail bodies or sign-in ids: nothing logs a request's headers or body, and these paths are
 * removed should a caller pass them anyway.
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

export type RequestRecord = {
  reqId: string;
  userId: number | undefined;
  /** The route pattern ("/admin/bookings/:id"), "static" for a file: never the URL. */
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
 * drizzle's messages quote the SQL and its parameters (a password hash, an e-mail) and stacks
 * show internals: only the innermost error's name and first line are written.
 */
export function describeError(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof Error) return `${current.name}: ${current.message.split("\n")[0]}`;
  return "Non-error thrown";
}

export function logError(context: string, error: unknown) {
  logger.error({ error: describeError(error) }, context);
}

/** `fields` are ids and counts, never personal text. */
export function logEvent(
  event: string,
  fields: Record<string, string | number | boolean | null | undefined> = {},
  level: "info" | "warn" = "info",
) {
  logger[level]({ event, ...fields }, event);
}

/** Production's every line is JSON without a stack, also what libraries print to the console. */
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

const SAFE_REQUEST_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Fly's id behind its proxy, so a line can be found from the proxy's log. A caller's X-Request-Id
 * is never taken: anyone could pick another request's id, or flood the log under one.
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

export function runWithRequest<T>(record: RequestRecord, next: () => T): T {
  return requests.run(record, next);
}

export function noteRequestUser(userId: number) {
  const record = requests.getStore();
  if (record) record.userId = userId;
}

export function noteRequestRoute(route: string) {
  const record = requests.getStore();
  if (record) record.route = route;
}
