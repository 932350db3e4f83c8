import { randomUUID } from "node:crypto";
import { HttpResponse, http } from "msw";
import Stripe from "stripe";

/**
 * A small, stateful stand-in for the part of Stripe's HTTP API the app uses, answered by MSW
 * at https://api.stripe.com so the real `stripe` client runs unchanged. It keeps the rules that
 * matter to us: form-encoded bodies, idempotency keys (a repeated key replays the first
 * answer; the same key with other parameters is refused), the 30-minute minimum of
 * `expires_at`, and `expand[]=payment_intent.latest_charge` on retrieve.
 */
export const STRIPE_API = "https://api.stripe.com";

export type RecordedStripeRequest = {
  method: string;
  path: string;
  /** Decoded form body (POST) or query (GET), e.g. `line_items[0][price_data][unit_amount]`. */
  params: Record<string, string>;
  idempotencyKey: string | null;
  authorization: string | null;
};

export type MockSession = {
  id: string;
  object: "checkout.session";
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  customer_email: string | null;
  expires_at: number;
  created: number;
  url: string | null;
  mode: "payment";
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  livemode: false;
  /** Not part of the API: the card the customer paid with (what the charge would show). */
  card: { brand: string; last4: string; exp_month: number; exp_year: number } | null;
};

function stripeError(status: number, type: string, message: string) {
  return HttpResponse.json({ error: { type, message } }, { status });
}

export type MockRefund = {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  payment_intent: string;
  status: "succeeded";
  metadata: Record<string, string>;
};

export function createStripeMock() {
  const requests: RecordedStripeRequest[] = [];
  const sessions = new Map<string, MockSession>();
  const refunds: MockRefund[] = [];
  const idempotent = new Map<string, { body: string; response: object; status: number }>();
  let counter = 0;
  /**
   * `error`: Stripe answers 500 (and, like Stripe, saves that answer under the request's
   * idempotency key); `unreachable`: the connection fails before reaching Stripe.
   */
  const state: { outage: null | "error" | "unreachable" } = { outage: null };

  function outageResponse(key: string | null, body: string) {
    if (state.outage === "unreachable") return HttpResponse.error();
    const error = { error: { type: "api_error", message: "An unknown error occurred." } };
    if (key && !idempotent.has(key)) idempotent.set(key, { body, response: error, status: 500 });
    return HttpResponse.json(error, { status: 500 });
  }

  function record(request: Request, params: Record<string, string>) {
    const entry: RecordedStripeRequest = {
      method: request.method,
      path: new URL(request.url).pathname,
      params,
      idempotencyKey: request.headers.get("Idempotency-Key"),
      authorization: request.headers.get("Authorization"),
    };
    requests.push(entry);
    return entry;
  }

  /** The session as the API shows it, with the payment intent expanded when asked. */
  function render(session: MockSession, expand: string[]) {
    const { card, ...visible } = session;
    if (!expand.includes("payment_intent.latest_charge") || !session.payment_intent) {
      return visible;
    }
    return {
      ...visible,
      payment_intent: {
        id: session.payment_intent,
        object: "payment_intent",
        amount: session.amount_total,
        currency: session.currency,
        status: "succeeded",
        latest_charge: {
          id: `ch_${session.payment_intent.slice(3)}`,
          object: "charge",
          amount: session.amount_total,
          currency: session.currency,
          paid: true,
          payment_method_details: {
            type: "card",
            card: card
              ? {
                  brand: card.brand,
                  last4: card.last4,
                  exp_month: card.exp_month,
                  exp_year: card.exp_year,
                  funding: "credit",
                  country: "US",
                }
              : null,
          },
        },
      },
    };
  }

  /** Shared by the POST endpoints: key check, outage, replay of an idempotent request. */
  function begin(request: Request, body: string) {
    const params = Object.fromEntries(new URLSearchParams(body));
    const entry = record(request, params);
    if (!entry.authorization?.startsWith("Bearer sk_test_")) {
      return {
        params,
        response: stripeError(401, "invalid_request_error", "Invalid API Key provided"),
      };
    }
    const key = entry.idempotencyKey;
    if (
      state.outage === "unreachable" ||
      (state.outage === "error" && !idempotent.has(key ?? ""))
    ) {
      return { params, response: outageResponse(key, body) };
    }
    const replay = key ? idempotent.get(key) : undefined;
    if (replay) {
      if (replay.body !== body) {
        return {
          params,
          response: stripeError(
            400,
            "idempotency_error",
            "Keys for idempotent requests can only be used with the same parameters they were first used with.",
          ),
        };
      }
      return {
        params,
        response: HttpResponse.json(replay.response, {
          status: replay.status,
          headers: { "Idempotent-Replayed": "true" },
        }),
      };
    }
    return { params, response: null, key };
  }

  const handlers = [
    // Refunds: never more than was paid on the payment intent, in total.
    http.post(`${STRIPE_API}/v1/refunds`, async ({ request }) => {
      const body = await request.text();
      const { params, response, key } = begin(request, body);
      if (response) return response;
      const intent = params.payment_intent ?? "";
      const session = [...sessions.values()].find((s) => s.payment_intent === intent);
      if (!session) {
        return stripeError(400, "invalid_request_error", `No such payment_intent: '${intent}'`);
      }
      const refunded = refunds
        .filter((refund) => refund.payment_intent === intent)
        .reduce((sum, refund) => sum + refund.amount, 0);
      const amount = Number(params.amount ?? session.amount_total - refunded);
      if (amount <= 0 || refunded + amount > session.amount_total) {
        return stripeError(
          400,
          "invalid_request_error",
          `Refund amount ($${amount / 100}) is greater than unrefunded amount on charge ($${(session.amount_total - refunded) / 100})`,
        );
      }
      counter += 1;
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(params)) {
        const match = /^metadata\[(.+)\]$/.exec(name);
        if (match?.[1]) metadata[match[1]] = value;
      }
      const refund: MockRefund = {
        id: `re_test_mock${counter}`,
        object: "refund",
        amount,
        currency: session.currency,
        payment_intent: intent,
        status: "succeeded",
        metadata,
      };
      refunds.push(refund);
      if (key) idempotent.set(key, { body, response: refund, status: 200 });
      return HttpResponse.json(refund);
    }),

    http.get(`${STRIPE_API}/v1/refunds`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      const entry = record(request, Object.fromEntries(query));
      if (!entry.authorization?.startsWith("Bearer sk_test_")) {
        return stripeError(401, "invalid_request_error", "Invalid API Key provided");
      }
      if (state.outage) return outageResponse(null, "");
      const intent = query.get("payment_intent");
      const data = refunds
        .filter((refund) => !intent || refund.payment_intent === intent)
        .reverse();
      return HttpResponse.json({ object: "list", url: "/v1/refunds", has_more: false, data });
    }),

    // Expiring an open session; a complete or expired one cannot be expired.
    http.post(
      `${STRIPE_API}/v1/checkout/sessions/:id/expire`,
      async ({ request, params: path }) => {
        const body = await request.text();
        const { response } = begin(request, body);
        if (response) return response;
        const session = sessions.get(String(path.id));
        if (!session) {
          return stripeError(
            404,
            "invalid_request_error",
            `No such checkout.session: '${String(path.id)}'`,
          );
        }
        if (session.status !== "open") {
          return stripeError(
            400,
            "invalid_request_error",
            `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          );
        }
        Object.assign(session, { status: "expired", url: null });
        return HttpResponse.json(render(session, []));
      },
    ),

    http.post(`${STRIPE_API}/v1/checkout/sessions`, async ({ request }) => {
      const body = await request.text();
      const params = Object.fromEntries(new URLSearchParams(body));
      const entry = record(request, params);
      if (!entry.authorization?.startsWith("Bearer sk_test_")) {
        return stripeError(401, "invalid_request_error", "Invalid API Key provided");
      }
      const key = entry.idempotencyKey;
      if (
        state.outage === "unreachable" ||
        (state.outage === "error" && !idempotent.has(key ?? ""))
      ) {
        return outageResponse(key, body);
      }
      const replay = key ? idempotent.get(key) : undefined;
      if (replay) {
        if (replay.body !== body) {
          return stripeError(
            400,
            "idempotency_error",
            "Keys for idempotent requests can only be used with the same parameters they were first used with.",
          );
        }
        return HttpResponse.json(replay.response, {
          status: replay.status,
          headers: { "Idempotent-Replayed": "true" },
        });
      }
      const nowSeconds = Math.floor(Date.now() / 1000);
      const expiresAt = Number(params.expires_at ?? nowSeconds + 24 * 3600);
      if (expiresAt < nowSeconds + 30 * 60 || expiresAt > nowSeconds + 24 * 3600) {
        return stripeError(
          400,
          "invalid_request_error",
          "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
        );
      }
      // Every line item counts toward the total (a series has one per session).
      let amountTotal = 0;
      for (let line = 0; params[`line_items[${line}][price_data][unit_amount]`]; line++) {
        const unitAmount = Number(params[`line_items[${line}][price_data][unit_amount]`]);
        amountTotal += unitAmount * Number(params[`line_items[${line}][quantity]`] ?? 1);
      }
      counter += 1;
      const id = `cs_test_mock${counter}`;
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(params)) {
        const match = /^metadata\[(.+)\]$/.exec(name);
        if (match?.[1]) metadata[match[1]] = value;
      }
      const session: MockSession = {
        id,
        object: "checkout.session",
        status: "open",
        payment_status: "unpaid",
        amount_total: amountTotal,
        currency: params["line_items[0][price_data][currency]"] ?? "usd",
        client_reference_id: params.client_reference_id ?? null,
        metadata,
        customer_email: params.customer_email ?? null,
        expires_at: expiresAt,
        created: nowSeconds,
        url: `https://checkout.stripe.com/c/pay/${id}`,
        mode: "payment",
        payment_intent: null,
        success_url: params.success_url ?? "",
        cancel_url: params.cancel_url ?? "",
        livemode: false,
        card: null,
      };
      sessions.set(id, session);
      const response = render(session, []);
      if (key) idempotent.set(key, { body, response, status: 200 });
      return HttpResponse.json(response);
    }),

    // Listing, newest first, filtered by `status` and `created[gte]` (one page is enough here).
    http.get(`${STRIPE_API}/v1/checkout/sessions`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      const entry = record(request, Object.fromEntries(query));
      if (!entry.authorization?.startsWith("Bearer sk_test_")) {
        return stripeError(401, "invalid_request_error", "Invalid API Key provided");
      }
      if (state.outage) return outageResponse(null, "");
      const status = query.get("status");
      const since = Number(query.get("created[gte]") ?? 0);
      const data = [...sessions.values()]
        .filter((session) => (!status || session.status === status) && session.created >= since)
        .reverse()
        .map((session) => render(session, []));
      return HttpResponse.json({
        object: "list",
        url: "/v1/checkout/sessions",
        has_more: false,
        data,
      });
    }),

    http.get(`${STRIPE_API}/v1/checkout/sessions/:id`, ({ request, params }) => {
      const query = new URL(request.url).searchParams;
      const entry = record(request, Object.fromEntries(query));
      if (!entry.authorization?.startsWith("Bearer sk_test_")) {
        return stripeError(401, "invalid_request_error", "Invalid API Key provided");
      }
      if (state.outage) return outageResponse(null, "");
      const expand = [...query.entries()]
        .filter(([name]) => name === "expand[]" || /^expand\[\d+\]$/.test(name))
        .map(([, value]) => value);
      const session = sessions.get(String(params.id));
      if (!session) {
        return stripeError(
          404,
          "invalid_request_error",
          `No such checkout.session: '${String(params.id)}'`,
        );
      }
      return HttpResponse.json(render(session, expand));
    }),
  ];

  return {
    handlers,
    requests,
    sessions,
    refunds,
    /** Requests to one endpoint, e.g. `("POST", "/v1/checkout/sessions")`. */
    requestsTo(method: string, path: string | RegExp) {
      return requests.filter(
        (r) =>
          r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path)),
      );
    },
    /** Seeds a session as if it had been created earlier. */
    addSession(overrides: Partial<MockSession> & { id: string }): MockSession {
      const session: MockSession = {
        object: "checkout.session",
        status: "open",
        payment_status: "unpaid",
        amount_total: 0,
        currency: "usd",
        client_reference_id: null,
        metadata: {},
        customer_email: null,
        expires_at: Math.floor(Date.now() / 1000) + 31 * 60,
        created: Math.floor(Date.now() / 1000),
        url: `https://checkout.stripe.com/c/pay/${overrides.id}`,
        mode: "payment",
        payment_intent: null,
        success_url: "",
        cancel_url: "",
        livemode: false,
        card: null,
        ...overrides,
      };
      sessions.set(session.id, session);
      return session;
    },
    /** The customer paid on Stripe's page: the session completes with a succeeded charge. */
    pay(
      sessionId: string,
      card: { brand: string; last4: string } = { brand: "visa", last4: "4242" },
      overrides: Partial<MockSession> = {},
    ): MockSession {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`No mock session ${sessionId}`);
      counter += 1;
      Object.assign(session, {
        status: "complete",
        payment_status: "paid",
        payment_intent: `pi_test_mock${counter}`,
        url: null,
        card: { ...card, exp_month: 12, exp_year: 2034 },
        ...overrides,
      });
      return session;
    },
    /** The session as a webhook event carries it (not expanded). */
    snapshot(sessionId: string) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`No mock session ${sessionId}`);
      return render(session, []);
    },
    /** Starts (or with `null` ends) an outage. */
    setOutage(outage: null | "error" | "unreachable") {
      state.outage = outage;
    },
    reset() {
      state.outage = null;
      requests.length = 0;
      sessions.clear();
      refunds.length = 0;
      idempotent.clear();
    },
  };
}

export type StripeMock = ReturnType<typeof createStripeMock>;

/**
 * A webhook event as Stripe sends one: the JSON body and its Stripe-Signature header, signed
 * with `secret` (the app's webhook secret, or another to be refused).
 */
export function signedStripeEvent(
  type: string,
  object: unknown,
  options: { secret: string; id?: string },
) {
  const id = options.id ?? `evt_test_${randomUUID().replaceAll("-", "")}`;
  const payload = JSON.stringify({
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret });
  return { id, payload, signature };
}
