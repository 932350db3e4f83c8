import { type DataStrategyResult, data, type MiddlewareFunction } from "react-router";

/** A toast as the Toaster shows it. */
export type FailureToast = { type: "error"; message: string; description: string };

/** The request that got no answer, as the browser's router sent it. */
export type FailedRequest = { method: string; url: URL; intent: string | null };

const CONNECTION =
  "We could not reach the studio's server. Please check your connection and try again.";

const toast = (message: string, description = CONNECTION): FailureToast => ({
  type: "error",
  message,
  description,
});

const on = (method: string, path: RegExp, intents?: string[]) => (request: FailedRequest) =>
  request.method === method &&
  path.test(request.url.pathname) &&
  (!intents || intents.includes(request.intent ?? ""));

const sessionsTab = (request: FailedRequest) =>
  request.method === "GET" &&
  /^\/dashboard(\/sessions\/\d+(\/(cancel|reschedule))?)?$/.test(request.url.pathname) &&
  (request.url.searchParams.get("tab") ?? "bookings") === "bookings";

/**
 * Each request's failure in the words of the original site's error catalogue, with the
 * catalogue's fallback text where it names one (docs/product.md "Connection failures"). First
 * match wins.
 */
const FAILURES: [(request: FailedRequest) => boolean, FailureToast][] = [
  [
    on("POST", /^\/auth$/, ["login", "code"]),
    toast("Login failed", "Login failed. Please try again."),
  ],
  [on("POST", /^\/auth$/, ["register"]), toast("Registration failed")],
  [on("POST", /^\/logout$/), toast("Logout failed")],
  [on("POST", /^\/$/, ["apply-coupon", "remove-coupon"]), toast("Coupon Validation Failed")],
  [
    (request) =>
      on("POST", /^\/$/, ["book"])(request) ||
      on("GET", /^\/api\/availability(\/series)?$/)(request),
    toast("Conflict Check Failed", "Unable to verify time slot availability. Please try again."),
  ],
  [sessionsTab, toast("Error loading sessions", "Unknown error occurred")],
  [
    on("GET", /^\/(dashboard\/sessions\/\d+\/pay|checkout\/.+)$/),
    toast("Payment Failed", "No session selected"),
  ],
  [on("POST", /^\/(dashboard\/sessions\/\d+\/pay|checkout\/.+)$/), toast("Payment Failed")],
  [on("POST", /^\/dashboard$/, ["profile"]), toast("Error", "Failed to update profile")],
  [on("POST", /^\/admin\/services\/new$/), toast("Error", "Failed to create service")],
  [on("POST", /^\/admin\/services\/\d+\/edit$/), toast("Error", "Failed to update service")],
  [on("POST", /^\/admin\/services\/\d+\/delete$/), toast("Error", "Failed to delete service")],
  [on("POST", /^\/admin\/services$/), toast("Error", "Failed to update service status")],
  [
    on("POST", /^\/admin\/coupons$/, ["create"]),
    toast("Error creating coupon", "There was a problem creating the coupon. Please try again."),
  ],
  [on("POST", /^\/admin\/coupons$/, ["activate"]), toast("Error activating coupon")],
  [on("POST", /^\/admin\/coupons$/, ["deactivate"]), toast("Error deactivating coupon")],
  [
    on("POST", /^\/admin\/(bookings|sessions)(\/\d+)?$/, ["status"]),
    toast("Error updating booking", "An unknown error occurred"),
  ],
  [
    on("POST", /^\/admin\/(bookings|sessions)$/, ["bulk"]),
    toast("Error during batch update", "An unknown error occurred"),
  ],
  [on("POST", /^\/admin\/users$/, ["membership"]), toast("Error updating membership")],
  [on("POST", /^\/admin\/users$/), toast("Error updating user")],
  [on("POST", /^\/admin\/support$/), toast("Error updating request")],
];

export function connectionFailureToast(request: FailedRequest): FailureToast {
  return FAILURES.find(([matches]) => matches(request))?.[1] ?? toast("Connection problem");
}

/** A page that could not be loaded: its error boundary shows the toast's words in its place. */
export class ConnectionFailure extends Error {
  constructor(readonly toast: FailureToast) {
    super(toast.description);
    this.name = "ConnectionFailure";
  }
}

/**
 * The status a form post that got no answer is given in the browser: none of our servers sends
 * it, and the layout does not reload its data after it (root.tsx `shouldRevalidate`).
 */
export const CONNECTION_FAILED_STATUS = 599;

const listeners = new Set<(toast: FailureToast) => void>();

/** The layout's toaster listens here; returns the unsubscribe. */
export function onConnectionFailure(listener: (toast: FailureToast) => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** fetch rejects with a TypeError when no answer comes (offline, refused, reset). */
function noAnswer(result: DataStrategyResult): boolean {
  if (result.type !== "error") return false;
  // React Router wraps an action's error with its status.
  const error =
    (result.result as { type?: unknown; data?: unknown } | null)?.type === "DataWithResponseInit"
      ? (result.result as { data: unknown }).data
      : result.result;
  return error instanceof TypeError;
}

/**
 * What the router holds as this route's answer to its last post (React Router's framework mode
 * keeps its router on the window): kept through a post that got no answer.
 */
function lastActionData(routeId: string): unknown {
  const { __reactRouterDataRouter: router } = globalThis as {
    __reactRouterDataRouter?: { state: { actionData: Record<string, unknown> | null } };
  };
  return router?.state.actionData?.[routeId];
}

/** The post's `intent`, read from a copy before the router sends the body (forms post urlencoded). */
function intentOf(request: Request): Promise<string | null> {
  const type = request.headers.get("Content-Type") ?? "";
  if (request.method === "GET" || !type.startsWith("application/x-www-form-urlencoded")) {
    return Promise.resolve(null);
  }
  return request
    .clone()
    .text()
    .then((body) => new URLSearchParams(body).get("intent"))
    .catch(() => null);
}

/**
 * A request made with JavaScript that gets no answer (docs/product.md "Connection failures"): a
 * form post or a fetcher's load leaves the page as it was and says so in a toast; a page that
 * could not be loaded shows the same words in its error boundary.
 */
export const connectionFailureMiddleware: MiddlewareFunction<
  Record<string, DataStrategyResult>
> = async ({ request }, next) => {
  const intent = intentOf(request);
  const results = await next();
  const failed = Object.keys(results).filter((id) => results[id] && noAnswer(results[id]));
  if (failed.length === 0) return results;
  const url = new URL(request.url);
  const failure = connectionFailureToast({
    method: request.method,
    url,
    intent: await intent,
  });
  const keepsPage = request.method !== "GET" || url.pathname.startsWith("/api/");
  const answered = { ...results };
  for (const id of failed) {
    answered[id] = keepsPage
      ? {
          type: "data",
          result:
            request.method === "GET"
              ? undefined
              : data(lastActionData(id), { status: CONNECTION_FAILED_STATUS }),
        }
      : { type: "error", result: new ConnectionFailure(failure) };
  }
  if (keepsPage) for (const listener of listeners) listener(failure);
  return answered;
};
