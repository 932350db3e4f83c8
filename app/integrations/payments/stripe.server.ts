import { and, eq, isNull, or } from "drizzle-orm";
import Stripe from "stripe";
import { type Booking, bookings, processedPaymentEvents } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import { extendHold, getBooking, isPayable } from "#app/models/booking.server";
import { recordPayment } from "#app/models/payment.server";
import { env } from "#app/env.server";
import { logError } from "#app/log.server";
import {
  type CheckoutVerification,
  type PaymentProvider,
  PaymentServiceError,
  type RefundRequest,
} from "#app/integrations/payments/provider.server";
import { notPayableMessage } from "#app/integrations/payments/sandbox.server";

/**
 * Stripe Checkout. The amount always comes from the booking row, never from the browser; the
 * result is learnt from Stripe itself (a signed webhook, or asking for the session when the
 * success page comes first) and recorded by the idempotent `recordPayment`, so the webhook,
 * its replays and the success page can all race and still make one payment row.
 */

/**
 * Stripe refuses a Checkout Session that expires less than 30 minutes after creation, so each
 * session lasts 31 minutes from when it was planned (and the hold at least as long).
 */
const SESSION_MS = 31 * 60_000;
/**
 * A plan made this recently, with no session stored yet, is another request's in-flight
 * attempt: a double submit joins it (same expiry, same idempotency key) instead of opening a
 * second session. Older plans are abandoned or failed and are never reused, because Stripe
 * replays the saved response of a key, errors included.
 */
const JOIN_PLAN_MS = 30_000;
const SESSION_ID_PATTERN = /^cs_[A-Za-z0-9_]{1,250}$/;

export const PAYMENT_SERVICE_UNAVAILABLE_MESSAGE =
  "We could not reach the payment service. Your time slot is still held; please try again in a moment.";

/** The hosted checkout cannot be opened; `message` is safe to show to the customer. */
export class CheckoutUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckoutUnavailableError";
  }
}

/** The webhook request is not a genuine Stripe event (missing or wrong signature): a 400. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/**
 * `retry`: the event is genuine but could not be applied now (Stripe unreachable); answer
 * non-2xx so Stripe sends it again later. Nothing was recorded for it.
 */
export type WebhookOutcome = "fulfilled" | "not-fulfilled" | "duplicate" | "ignored" | "retry";

export type StripeProvider = PaymentProvider & {
  handleStripeWebhook(rawBody: string, signature: string | null): Promise<WebhookOutcome>;
};

export type StripeProviderOptions = {
  /** Tests (or a second account) may bring their own client or key. */
  client?: Stripe;
  secretKey?: string;
  webhookSecret?: string;
};

export function createStripeClient(secretKey: string): Stripe {
  return new Stripe(secretKey, {
    // Retried requests are safe: every POST carries an idempotency key.
    maxNetworkRetries: 2,
    // A customer waits on these calls; Stripe's default (80 s) is far too long.
    timeout: 20_000,
    appInfo: { name: "studio-booking" },
  });
}

let sharedClient: Stripe | undefined;

function defaultClient(): Stripe {
  if (!sharedClient) {
    if (!env.STRIPE_SECRET_KEY) throw new Error("STRIPE_SECRET_KEY is not set");
    sharedClient = createStripeClient(env.STRIPE_SECRET_KEY);
  }
  return sharedClient;
}

export function stripeProvider(options: StripeProviderOptions = {}): StripeProvider {
  let own: Stripe | undefined = options.client;
  const client = () => {
    if (own) return own;
    if (options.secretKey) {
      own = createStripeClient(options.secretKey);
      return own;
    }
    return defaultClient();
  };

  return {
    name: "stripe",
    checkout: "hosted",
    createHostedCheckout: (booking, appUrl) => openCheckout(client(), booking.id, appUrl),
    verifyCheckout: async (sessionId) => {
      if (!SESSION_ID_PATTERN.test(sessionId)) return { paid: false, bookingId: null };
      const { retry: _retry, ...verification } = await fulfilSession(client(), sessionId);
      return verification;
    },
    refund: (request) => refundPayment(client(), request),
    closeCheckout: (booking) => closeOpenCheckout(client(), booking),
    handleStripeWebhook: (rawBody, signature) =>
      handleEvent(client(), options.webhookSecret ?? env.STRIPE_WEBHOOK_SECRET, rawBody, signature),
  };
}

/** POST /api/payments/webhook with the shared client and env.STRIPE_WEBHOOK_SECRET. */
export function handleStripeWebhook(rawBody: string, signature: string | null) {
  return stripeProvider().handleStripeWebhook(rawBody, signature);
}

// ---------------------------------------------------------------------------------------------
// Opening the hosted checkout

async function openCheckout(stripe: Stripe, bookingId: number, appUrl: string) {
  // A concurrent request may open a session between our read and our plan: look again.
  for (let round = 0; round < 3; round++) {
    const now = Date.now();
    // Re-read: the price and the state come from the database, never from the caller's object.
    const booking = getBooking(bookingId);
    if (!booking) throw new CheckoutUnavailableError("This booking does not exist.");
    if (!isPayable(booking, now)) {
      throw new CheckoutUnavailableError(notPayableMessage(booking, now));
    }

    let stale: string | null = null;
    if (booking.checkoutSessionId && (booking.checkoutExpiresAt ?? 0) > now) {
      const existing = await retrieveForCheckout(stripe, booking.checkoutSessionId);
      if (existing.status === "open" && existing.url) return { url: existing.url };
      if (existing.status === "complete") {
        // Paid, but the webhook has not arrived: record it now rather than charge again.
        await fulfil(existing);
        return { url: successUrl(appUrl, existing.id) };
      }
      stale = existing.id;
    }

    const plan = planCheckout(bookingId, now, stale);
    if (plan.kind === "not-payable") throw new CheckoutUnavailableError(plan.message);
    if (plan.kind === "opened-elsewhere") continue;

    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.create(
        checkoutParams(plan.booking, appUrl, plan.until),
        {
          // The same booking and expiry give the same key, so a double submit racing us gets
          // the very session we get (Stripe replays the first response for a repeated key).
          idempotencyKey: `checkout-booking-${bookingId}-${plan.until}`,
        },
      );
    } catch (error) {
      logError(`Stripe: could not open a Checkout Session for booking ${bookingId}`, error);
      // The next attempt plans afresh, with a new key (this one may replay the failure).
      db.update(bookings)
        .set({ checkoutExpiresAt: null })
        .where(
          and(
            eq(bookings.id, bookingId),
            isNull(bookings.checkoutSessionId),
            eq(bookings.checkoutExpiresAt, plan.until),
          ),
        )
        .run();
      throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
    }
    db.update(bookings)
      .set({ checkoutSessionId: session.id })
      .where(and(eq(bookings.id, bookingId), eq(bookings.checkoutExpiresAt, plan.until)))
      .run();
    if (!session.url) throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
    return { url: session.url };
  }
  throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
}

type CheckoutPlan =
  | { kind: "create"; booking: Booking; until: number }
  | { kind: "not-payable"; message: string }
  | { kind: "opened-elsewhere" };

/**
 * Decides the session's expiry and extends the hold to it before Stripe is asked, in one
 * IMMEDIATE transaction with no await inside, so concurrent requests (even in other
 * processes) agree on one expiry and therefore on one idempotency key. The session never
 * outlives the hold: a slot cannot be paid for after it was released.
 */
function planCheckout(bookingId: number, now: number, staleSessionId: string | null): CheckoutPlan {
  return writeTransaction((tx) => {
    const booking = getBooking(bookingId, tx);
    if (!booking || !isPayable(booking, now)) {
      return {
        kind: "not-payable" as const,
        message: booking ? notPayableMessage(booking, now) : "This booking does not exist.",
      };
    }
    if (booking.checkoutSessionId !== null && booking.checkoutSessionId !== staleSessionId) {
      return { kind: "opened-elsewhere" as const };
    }
    const planned = booking.checkoutSessionId === null ? booking.checkoutExpiresAt : null;
    const joinable = planned !== null && planned >= now + SESSION_MS - JOIN_PLAN_MS;
    const until = joinable ? planned : now + SESSION_MS;
    // Runs on the same connection, so inside this transaction.
    const held = extendHold(bookingId, until, now);
    if (!held) return { kind: "not-payable" as const, message: notPayableMessage(booking, now) };
    tx.update(bookings)
      .set({ checkoutSessionId: null, checkoutExpiresAt: until })
      .where(
        and(
          eq(bookings.id, bookingId),
          or(
            isNull(bookings.checkoutSessionId),
            staleSessionId === null ? undefined : eq(bookings.checkoutSessionId, staleSessionId),
          ),
        ),
      )
      .run();
    return { kind: "create" as const, booking: held, until };
  });
}

function checkoutParams(
  booking: Booking,
  appUrl: string,
  until: number,
): Stripe.Checkout.SessionCreateParams {
  const hours = Number(booking.hoursNeeded);
  return {
    mode: "payment",
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: "usd",
          // Whole dollars in the database, cents at Stripe.
          unit_amount: booking.totalCost * 100,
          product_data: {
            name: `Studio session #${booking.id}`,
            description: `${sessionDate(booking)}, ${sessionTimeRange(booking)} (Atlanta time), ${hours} ${hours === 1 ? "hour" : "hours"}`,
          },
        },
      },
    ],
    client_reference_id: String(booking.id),
    metadata: { bookingId: String(booking.id) },
    payment_intent_data: { metadata: { bookingId: String(booking.id) } },
    customer_email: booking.email,
    success_url: `${appUrl}/booking-success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${appUrl}/checkout/${booking.id}`,
    // Never outlives the hold: a session cannot be paid after its slot was released.
    expires_at: Math.floor(until / 1000),
  };
}

function successUrl(appUrl: string, sessionId: string) {
  return `${appUrl}/booking-success?session_id=${encodeURIComponent(sessionId)}`;
}

async function retrieveForCheckout(stripe: Stripe, sessionId: string) {
  try {
    return await retrieveSession(stripe, sessionId);
  } catch (error) {
    logError(`Stripe: could not look up Checkout Session ${sessionId}`, error);
    throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
  }
}

function retrieveSession(stripe: Stripe, sessionId: string) {
  // The charge carries the card's brand and last 4 digits (and nothing more is kept).
  return stripe.checkout.sessions.retrieve(sessionId, {
    expand: ["payment_intent.latest_charge"],
  });
}

// ---------------------------------------------------------------------------------------------
// Fulfilment: the success page and the webhook both end here

type EventRef = { id: string; provider: "stripe"; type: string };

async function fulfilSession(
  stripe: Stripe,
  sessionId: string,
  event?: EventRef,
): Promise<CheckoutVerification & { retry: boolean }> {
  let session: Stripe.Checkout.Session;
  try {
    session = await retrieveSession(stripe, sessionId);
  } catch (error) {
    logError(`Stripe: could not look up Checkout Session ${sessionId}`, error);
    // An unknown session will not appear later; anything else (network, 5xx, rate limit,
    // a bad key being fixed) may.
    return {
      paid: false,
      bookingId: null,
      retry: !(error instanceof Stripe.errors.StripeInvalidRequestError),
    };
  }
  return { ...(await fulfil(session, event)), retry: false };
}

async function fulfil(
  session: Stripe.Checkout.Session,
  event?: EventRef,
): Promise<CheckoutVerification> {
  const context = `Stripe: Checkout Session ${session.id}`;
  const bookingId = bookingIdOf(session);
  if (bookingId === null) {
    logError(context, new Error("carries no booking id"));
    return { paid: false, bookingId: null };
  }
  const booking = getBooking(bookingId);
  if (!booking) {
    logError(context, new Error(`names booking ${bookingId}, which does not exist`));
    return { paid: false, bookingId: null };
  }
  // Not paid yet (or an asynchronous method still pending): nothing to record.
  if (session.payment_status !== "paid") return { paid: false, bookingId };

  const expected = booking.totalCost * 100;
  if (session.currency !== "usd" || session.amount_total !== expected) {
    logError(
      context,
      new Error(
        `paid ${session.amount_total ?? "?"} ${session.currency ?? "?"} but booking ${bookingId} costs ${expected} usd; not recorded`,
      ),
    );
    return { paid: false, bookingId };
  }
  const intent = session.payment_intent;
  const transactionId = typeof intent === "string" ? intent : intent?.id;
  if (!transactionId) {
    logError(context, new Error("is paid but has no payment intent; not recorded"));
    return { paid: false, bookingId };
  }

  const result = recordPayment(
    {
      bookingId,
      amount: expected / 100,
      method: "card",
      transactionId,
      details: cardOf(intent),
      ...(event ? { event } : {}),
    },
    Date.now(),
    env.BUFFER_MINUTES,
  );
  if (result.outcome === "not-payable") {
    // Money was taken but the booking cannot take it (cancelled, or paid another way): staff
    // must refund. Never recorded as a second payment.
    logError(
      context,
      new Error(`payment ${transactionId} for booking ${bookingId} not recorded: ${result.reason}`),
    );
    return { paid: false, bookingId };
  }
  return { paid: true, bookingId };
}

function bookingIdOf(session: Stripe.Checkout.Session): number | null {
  const raw = session.metadata?.bookingId ?? session.client_reference_id;
  if (!raw || !/^\d{1,12}$/.test(raw)) return null;
  return Number(raw);
}

/** Brand and last 4 digits only; Stripe never gives us more, and we would not keep it. */
function cardOf(intent: string | Stripe.PaymentIntent | null): { brand: string; last4: string } {
  const charge = typeof intent === "object" && intent ? intent.latest_charge : null;
  const card = typeof charge === "object" && charge ? charge.payment_method_details?.card : null;
  return { brand: card?.brand ?? "unknown", last4: card?.last4 ?? "" };
}

// ---------------------------------------------------------------------------------------------
// Refunds and cancelling an unpaid booking

/** Cancelling needs Stripe (to refund, or to close an open checkout) and it did not answer. */
export const CANCEL_UNAVAILABLE_MESSAGE =
  "We could not reach the payment service, so your booking is unchanged. Please try again in a moment.";

async function refundPayment(stripe: Stripe, request: RefundRequest) {
  try {
    // A refund already made for this charge (its recording failed) is the refund: found and
    // returned rather than made again, whatever the amount would be now.
    const earlier = await stripe.refunds.list({
      payment_intent: request.paymentTransactionId,
      limit: 10,
    });
    const made = earlier.data.find(
      (refund) => refund.status !== "failed" && refund.status !== "canceled",
    );
    if (made) return { refundId: made.id, amount: made.amount / 100 };
    const refund = await stripe.refunds.create(
      {
        payment_intent: request.paymentTransactionId,
        amount: request.amount * 100,
        metadata: { bookingId: String(request.bookingId) },
      },
      // Two requests racing past the look-up above share the key: Stripe makes one refund.
      { idempotencyKey: `refund-booking-${request.bookingId}` },
    );
    return { refundId: refund.id, amount: refund.amount / 100 };
  } catch (error) {
    logError(`Stripe: could not refund booking ${request.bookingId}`, error);
    throw new PaymentServiceError(CANCEL_UNAVAILABLE_MESSAGE);
  }
}

/**
 * An unpaid booking being cancelled may still have a Checkout Session open at Stripe: expire
 * it so it cannot be paid afterwards. One that completed meanwhile is recorded, so the
 * cancellation sees the payment and refunds it.
 */
async function closeOpenCheckout(stripe: Stripe, booking: Booking) {
  if (!booking.checkoutSessionId) return;
  try {
    const session = await retrieveSession(stripe, booking.checkoutSessionId);
    if (session.status === "open") await stripe.checkout.sessions.expire(session.id);
    else if (session.status === "complete") await fulfil(session);
  } catch (error) {
    logError(`Stripe: could not close Checkout Session ${booking.checkoutSessionId}`, error);
    throw new PaymentServiceError(CANCEL_UNAVAILABLE_MESSAGE);
  }
}

// ---------------------------------------------------------------------------------------------
// Webhook

async function handleEvent(
  stripe: Stripe,
  secret: string | undefined,
  rawBody: string,
  signature: string | null,
): Promise<WebhookOutcome> {
  if (!secret) throw new Error("STRIPE_WEBHOOK_SECRET is not set");
  if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header");
  let event: Stripe.Event;
  try {
    // The raw body, byte for byte: a parsed and re-serialized body would not verify.
    event = stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    throw new WebhookSignatureError("Invalid Stripe signature");
  }
  if (
    event.type !== "checkout.session.completed" &&
    event.type !== "checkout.session.async_payment_succeeded"
  ) {
    return "ignored";
  }
  // A replay needs no call to Stripe (recordPayment would also see it and change nothing).
  const seen = db
    .select({ id: processedPaymentEvents.id })
    .from(processedPaymentEvents)
    .where(eq(processedPaymentEvents.id, event.id))
    .get();
  if (seen) return "duplicate";

  // Ask Stripe for the session as it is now (not the event's snapshot): events can arrive out
  // of order, and the card details need the expanded charge.
  const result = await fulfilSession(stripe, event.data.object.id, {
    id: event.id,
    provider: "stripe",
    type: event.type,
  });
  if (result.retry) return "retry";
  return result.paid ? "fulfilled" : "not-fulfilled";
}
