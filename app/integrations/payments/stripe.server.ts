import Stripe from "stripe";
import {
  type CheckoutRequest,
  type CheckoutSession,
  type HostedCheckoutProvider,
  type MadeRefund,
  type PaymentEvent,
  PaymentProviderError,
  WebhookSignatureError,
} from "#app/integrations/payments/types";

/** Every failure is a PaymentProviderError with Stripe's error as its cause. */
export type StripeSettings = {
  secretKey: string;
  webhookSecret?: string;
  client?: Stripe;
  /** A test double (STRIPE_API_URL, test keys only). */
  apiUrl?: string;
};

const SESSION_ID_PATTERN = /^cs_[A-Za-z0-9_]{1,250}$/;

export function createStripeClient(secretKey: string, apiUrl?: string): Stripe {
  const api = apiUrl ? new URL(apiUrl) : null;
  return new Stripe(secretKey, {
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === "http:" ? "80" : "443"),
          protocol: api.protocol === "http:" ? "http" : "https",
        }
      : {}),
    // Retried requests are safe: every POST carries an idempotency key.
    maxNetworkRetries: 2,
    // A customer waits on these calls; Stripe's default (80 s) is far too long.
    timeout: 20_000,
    appInfo: { name: "studio-booking" },
  });
}

export function stripeProvider(settings: StripeSettings): HostedCheckoutProvider {
  let own = settings.client;
  const client = () => {
    own ??= createStripeClient(settings.secretKey, settings.apiUrl);
    return own;
  };

  return {
    name: "stripe",
    checkout: "hosted",
    isCheckoutReference: (reference) => SESSION_ID_PATTERN.test(reference),

    createCheckout: (request) =>
      call(`open a Checkout Session for order ${request.orderId}`, async () =>
        toCheckoutSession(
          await client().checkout.sessions.create(checkoutParams(request), {
            // Stripe replays the first answer for a repeated key: a double submit gets the same.
            idempotencyKey: request.idempotencyKey,
          }),
        ),
      ),

    retrieveCheckout: (checkoutId) =>
      call(`look up Checkout Session ${checkoutId}`, async () =>
        toCheckoutSession(await retrieveSession(client(), checkoutId)),
      ),

    closeCheckout: (checkoutId) =>
      call(`close Checkout Session ${checkoutId}`, () => closeSession(client(), checkoutId)),

    closeCheckoutsOf: ({ orderId, expiresAt }) =>
      call(`close the Checkout Sessions of order ${orderId}`, async () => {
        const expiry = Math.floor(expiresAt / 1000);
        const closed: CheckoutSession[] = [];
        // A session is created at most 24 hours before it expires; the metadata names its order.
        for await (const session of client().checkout.sessions.list({
          status: "open",
          created: { gte: expiry - 24 * 3600 },
          limit: 100,
        })) {
          if (session.metadata?.orderId !== String(orderId) || session.expires_at !== expiry) {
            continue;
          }
          closed.push(await closeSession(client(), session.id));
        }
        return closed;
      }),

    refund: (request) =>
      call(`refund booking ${request.bookingId}`, async () => {
        // A refund already made (its recording failed) is the refund, whatever the amount now.
        const made = await earlierRefund(client(), request.paymentTransactionId, request.bookingId);
        if (made) return made;
        const refund = await client().refunds.create(
          {
            payment_intent: request.paymentTransactionId,
            amount: request.amount * 100,
            metadata: { bookingId: String(request.bookingId) },
          },
          // Two requests racing past the look-up above share the key: Stripe makes one refund.
          { idempotencyKey: request.idempotencyKey },
        );
        return { refundId: refund.id, amount: refund.amount / 100 };
      }),

    findRefund: (paymentTransactionId, bookingId) =>
      call(`look up the refunds of ${paymentTransactionId}`, () =>
        earlierRefund(client(), paymentTransactionId, bookingId),
      ),

    verifyWebhook(rawBody, signature) {
      if (!settings.webhookSecret) throw new Error("The Stripe webhook secret is not configured");
      if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header");
      let event: Stripe.Event;
      try {
        // The raw body, byte for byte: a parsed and re-serialized body would not verify.
        event = client().webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
      } catch {
        throw new WebhookSignatureError("Invalid Stripe signature");
      }
      const object = event.data.object as { object?: unknown; id?: unknown };
      return {
        id: event.id,
        type: event.type,
        checkoutId:
          object.object === "checkout.session" && typeof object.id === "string" ? object.id : null,
        refund: object.object === "refund" ? refundOf(object as Stripe.Refund) : null,
      };
    },
  };
}

function refundOf(refund: Stripe.Refund): PaymentEvent["refund"] {
  const intent = refund.payment_intent;
  const paymentId = typeof intent === "string" ? intent : intent?.id;
  if (typeof refund.id !== "string" || !paymentId) return null;
  const named = refund.metadata?.bookingId;
  return {
    id: refund.id,
    paymentId,
    amount: refund.amount / 100,
    bookingId: named && ID.test(named) ? Number(named) : null,
  };
}

async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // An invalid request (an unknown session, a refused refund) will not succeed later.
    throw new PaymentProviderError(`Stripe could not ${what}`, {
      retryable: !(error instanceof Stripe.errors.StripeInvalidRequestError),
      cause: error,
    });
  }
}

async function closeSession(stripe: Stripe, sessionId: string): Promise<CheckoutSession> {
  const session = await retrieveSession(stripe, sessionId);
  if (session.status !== "open") return toCheckoutSession(session);
  return toCheckoutSession(await stripe.checkout.sessions.expire(session.id));
}

function retrieveSession(stripe: Stripe, sessionId: string) {
  return stripe.checkout.sessions.retrieve(sessionId, {
    expand: ["payment_intent.latest_charge"],
  });
}

/**
 * One charge can pay every session of an order: only a refund whose metadata names this booking
 * is its refund. One made in Stripe's dashboard names none and is never taken for ours.
 */
async function earlierRefund(
  stripe: Stripe,
  paymentIntent: string,
  bookingId: number,
): Promise<MadeRefund | null> {
  const earlier = await stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 });
  const made = earlier.data.find(
    (refund) =>
      refund.status !== "failed" &&
      refund.status !== "canceled" &&
      refund.metadata?.bookingId === String(bookingId),
  );
  return made ? { refundId: made.id, amount: made.amount / 100 } : null;
}

function checkoutParams(request: CheckoutRequest): Stripe.Checkout.SessionCreateParams {
  const orderId = String(request.orderId);
  const bookingIds = request.lines.map((line) => line.bookingId).join(",");
  return {
    mode: "payment",
    line_items: request.lines.map((line) => ({
      quantity: 1,
      price_data: {
        currency: "usd",
        // Whole dollars in the database, cents at Stripe.
        unit_amount: line.amount * 100,
        product_data: { name: line.name, description: line.description },
      },
    })),
    client_reference_id: `order-${orderId}`,
    metadata: { orderId, bookingIds },
    payment_intent_data: { metadata: { orderId, bookingIds } },
    customer_email: request.customerEmail,
    success_url: request.successUrl,
    cancel_url: request.cancelUrl,
    expires_at: Math.floor(request.expiresAt / 1000),
  };
}

function toCheckoutSession(session: Stripe.Checkout.Session): CheckoutSession {
  const intent = session.payment_intent;
  return {
    id: session.id,
    // Stripe may add statuses: anything not open or complete can no longer be paid.
    status:
      session.status === "open" ? "open" : session.status === "complete" ? "complete" : "expired",
    url: session.url,
    paid: session.payment_status === "paid",
    order: orderOf(session),
    amountTotal: session.amount_total,
    currency: session.currency,
    paymentId: (typeof intent === "string" ? intent : intent?.id) ?? null,
    card: cardOf(intent),
  };
}

const ID = /^\d{1,12}$/;

/** Checkouts opened before orders name a series (`seriesId`, now its order's id) or a booking. */
function orderOf(session: Stripe.Checkout.Session): CheckoutSession["order"] {
  const metadata = session.metadata ?? {};
  const id = metadata.orderId ?? metadata.seriesId;
  const ids = metadata.bookingIds;
  if (id && ID.test(id) && ids && /^\d{1,12}(,\d{1,12}){0,11}$/.test(ids)) {
    return { id: Number(id), bookingIds: ids.split(",").map(Number) };
  }
  const single = metadata.bookingId ?? session.client_reference_id;
  if (single && ID.test(single)) return { id: null, bookingIds: [Number(single)] };
  return null;
}

/** Stripe never gives us more, and we would not keep it. */
function cardOf(intent: string | Stripe.PaymentIntent | null): { brand: string; last4: string } {
  const charge = typeof intent === "object" && intent ? intent.latest_charge : null;
  const card = typeof charge === "object" && charge ? charge.payment_method_details?.card : null;
  return { brand: card?.brand ?? "unknown", last4: card?.last4 ?? "" };
}
