import { type DataStrategyResult, data } from "react-router";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  CONNECTION_FAILED_STATUS,
  ConnectionFailure,
  connectionFailureMiddleware,
  connectionFailureToast,
  onConnectionFailure,
} from "#app/components/connection-failure";

const CONNECTION =
  "We could not reach the studio's server. Please check your connection and try again.";

const failureOf = (method: string, path: string, intent: string | null = null) => {
  const { message, description } = connectionFailureToast({
    method,
    url: new URL(path, "http://studio.test"),
    intent,
  });
  return [message, description];
};

describe('connectionFailureToast: the words of docs/product.md "Connection failures"', () => {
  it.each([
    ["POST", "/auth", "login", "Login failed", "Login failed. Please try again."],
    ["POST", "/auth", "code", "Login failed", "Login failed. Please try again."],
    ["POST", "/auth", "register", "Registration failed", CONNECTION],
    ["POST", "/logout", null, "Logout failed", CONNECTION],
    ["POST", "/", "apply-coupon", "Coupon Validation Failed", CONNECTION],
    [
      "POST",
      "/",
      "book",
      "Conflict Check Failed",
      "Unable to verify time slot availability. Please try again.",
    ],
    [
      "GET",
      "/api/availability?date=2030-01-02&hours=2",
      null,
      "Conflict Check Failed",
      "Unable to verify time slot availability. Please try again.",
    ],
    ["GET", "/dashboard?tab=bookings", null, "Error loading sessions", "Unknown error occurred"],
    ["GET", "/dashboard", null, "Error loading sessions", "Unknown error occurred"],
    ["GET", "/dashboard/sessions/7", null, "Error loading sessions", "Unknown error occurred"],
    ["GET", "/dashboard/sessions/7/pay", null, "Payment Failed", "No session selected"],
    ["GET", "/checkout/series/3", null, "Payment Failed", "No session selected"],
    ["POST", "/dashboard/sessions/7/pay", null, "Payment Failed", CONNECTION],
    ["POST", "/admin/services/new", null, "Error", "Failed to create service"],
    ["POST", "/admin/services/4/edit", null, "Error", "Failed to update service"],
    ["POST", "/admin/services/4/delete", null, "Error", "Failed to delete service"],
    ["POST", "/admin/services", "toggle", "Error", "Failed to update service status"],
    [
      "POST",
      "/admin/coupons",
      "create",
      "Error creating coupon",
      "There was a problem creating the coupon. Please try again.",
    ],
    ["POST", "/admin/coupons", "deactivate", "Error deactivating coupon", CONNECTION],
    ["POST", "/admin/bookings/9", "status", "Error updating booking", "An unknown error occurred"],
    ["POST", "/admin/sessions", "status", "Error updating booking", "An unknown error occurred"],
    ["POST", "/admin/sessions", "bulk", "Error during batch update", "An unknown error occurred"],
    ["GET", "/dashboard?tab=profile", null, "Connection problem", CONNECTION],
    ["POST", "/dashboard", "password", "Connection problem", CONNECTION],
  ])("%s %s (%s): %s / %s", (method, path, intent, title, description) => {
    expect(failureOf(method, path, intent)).toEqual([title, description]);
  });
});

type Results = Record<string, DataStrategyResult>;

function run(request: Request, results: Results) {
  const next = async () => results;
  return connectionFailureMiddleware(
    { request, params: {}, context: {} } as Parameters<typeof connectionFailureMiddleware>[0],
    next,
  ) as Promise<Results>;
}

const offline = (): DataStrategyResult => ({
  type: "error",
  result: new TypeError("Failed to fetch"),
});

const post = (path: string, intent: string) =>
  new Request(`http://studio.test${path}`, {
    method: "POST",
    body: new URLSearchParams({ intent }),
  });

describe("connectionFailureMiddleware", () => {
  const shown: unknown[] = [];
  const stop = onConnectionFailure((toast) => shown.push(toast));
  const global = globalThis as { __reactRouterDataRouter?: unknown };

  afterEach(() => {
    shown.length = 0;
    delete global.__reactRouterDataRouter;
  });
  afterAll(stop);

  it("answers a post that got no answer with the route's last answer, and a toast", async () => {
    global.__reactRouterDataRouter = {
      state: { actionData: { "routes/auth": { intent: "login" } } },
    };
    // React Router hands an action's error over wrapped with its status.
    const wrapped = {
      type: "error",
      result: data(new TypeError("Failed to fetch")),
    } as DataStrategyResult;
    const results = await run(post("/auth", "login"), { "routes/auth": wrapped });
    expect(results["routes/auth"]).toEqual({
      type: "data",
      result: data({ intent: "login" }, { status: CONNECTION_FAILED_STATUS }),
    });
    expect(shown).toEqual([
      { type: "error", message: "Login failed", description: "Login failed. Please try again." },
    ]);
  });

  it("gives a fetcher's load under /api no data and a toast", async () => {
    const request = new Request("http://studio.test/api/availability?date=2030-01-02&hours=2");
    const results = await run(request, { "routes/api/availability": offline() });
    expect(results["routes/api/availability"]).toEqual({ type: "data", result: undefined });
    expect(shown).toHaveLength(1);
  });

  it("hands a page that could not load to its error boundary, in the same words", async () => {
    const request = new Request("http://studio.test/dashboard/sessions/7/pay");
    const results = await run(request, { "routes/dashboard/sessions.$id.pay": offline() });
    const error = results["routes/dashboard/sessions.$id.pay"]?.result;
    expect(error).toBeInstanceOf(ConnectionFailure);
    expect((error as ConnectionFailure).toast).toMatchObject({
      message: "Payment Failed",
      description: "No session selected",
    });
    expect(shown).toEqual([]);
  });

  it("leaves answers and the server's own errors as they are", async () => {
    const refused = { type: "error", result: new Error("Unexpected Server Error") } as const;
    const answer = { type: "data", result: { ok: true } } as const;
    const results = await run(post("/auth", "login"), { root: answer, "routes/auth": refused });
    expect(results).toEqual({ root: answer, "routes/auth": refused });
    expect(shown).toEqual([]);
  });
});
