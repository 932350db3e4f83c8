import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";

/**
 * Stripe Checkout end to end in-process: the real `stripe` client, answered by MSW at
 * https://api.stripe.com; the real route modules with real Requests; a fresh SQLite file.
 */
const SECRET_KEY = "sk_test_51StudioBookingIntegrationKey";
const WEBHOOK_SECRET = "whsec_studio_booking_integration_secret";
const APP_URL = "https://studio.test";

// Settings are read when the app modules load, so they are set before the imports below run.
vi.hoisted(() => {
  process.env.PAYMENT_PROVIDER = "stripe";
  process.env.STRIPE_SECRET_KEY = "sk_test_51StudioBookingIntegrationKey";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_studio_booking_integration_secret";
  process.env.APP_URL = "https://studio.test";
  process.env.STRIPE_SUPPRESS_NOTICES = "true";
});

import {
  type Booking,
  bookingHistory,
  bookings,
  emailOutbox,
  orders,
  payments,
  processedPaymentEvents,
  users,
} from "#db/schema";
import { db } from "#app/db.server";
import { studioDateOf, studioTimeOf } from "#app/domain/studio-time";
import { getBooking } from "#app/models/booking.server";
import { getOrder } from "#app/models/order.server";
import * as statusRoute from "#app/routes/api/payments.status";
import * as successPage from "#app/routes/booking-success";
import * as webhookRoute from "#app/routes/api/payments.webhook";
import { env } from "#app/env.server";
import { bookingTarget, checkoutAction } from "#app/routes/checkout/checkout.server";
import { cancelOwnBooking } from "#app/workflows/cancel-booking.server";
import {
  CheckoutUnavailableError,
  openHostedCheckout,
  PAYMENT_SERVICE_UNAVAILABLE_MESSAGE,
} from "#app/workflows/checkout.server";
import { verifyCheckout } from "#app/workflows/fulfil-payment.server";
import { CANCEL_UNAVAILABLE_MESSAGE } from "#app/workflows/payment-provider.server";
import { isCrossSiteWrite } from "#app/web/security.server";
import { createUserWithoutPassword, uniqueUsername } from "#tests/factories/user";
import { signedStripeEvent } from "#tests/mocks/stripe";
import { stripeMockForThisFile } from "#tests/setup/stripe-mock-for-this-file";
import { clientAddressContext } from "#app/web/request-context.server";
import { paymentProvider } from "#app/adapters.server";

const { stripe, logged } = stripeMockForThisFile();

// ---------------------------------------------------------------------------------------------
// Fixtures

let dayOffset = 3;

/**
 * An unpaid booking held for 30 minutes, as the booking form creates it ($150, 2 hours), in an
 * order of its own.
 */
function createUnpaidBooking(overrides: Partial<typeof bookings.$inferInsert> = {}): Booking {
  const user = createUserWithoutPassword(db, { username: uniqueUsername("payer") });
  const now = Date.now();
  const order = db
    .insert(orders)
    .values({ userId: user.id, createdAt: now })
    .returning({ id: orders.id })
    .get();
  // Each booking on its own day, so none collides with another.
  const startsAt = Math.floor((now + dayOffset++ * 86_400_000) / 3_600_000) * 3_600_000;
  return db
    .insert(bookings)
    .values({
      userId: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      phoneNumber: user.phoneNumber,
      email: user.email,
      stakeholder: "no",
      recordingDate: studioDateOf(startsAt),
      recordingTime: studioTimeOf(startsAt),
      guestCount: "2",
      hoursNeeded: "2",
      startsAt,
      endsAt: startsAt + 2 * 3_600_000,
      hourlyRate: 75,
      totalCost: 150,
      originalCost: 150,
      status: "PENDING_PAYMENT",
      holdExpiresAt: now + 30 * 60_000,
      orderId: order.id,
      createdAt: now,
      ...overrides,
    })
    .returning()
    .get();
}

function reload(id: number): Booking {
  const booking = getBooking(db, id);
  if (!booking) throw new Error(`Booking ${id} vanished`);
  return booking;
}

/** The booking's order as it is now: the hosted checkout lives there. */
function orderOf(booking: Booking) {
  const order = getOrder(db, booking.orderId ?? 0);
  if (!order) throw new Error(`Booking ${booking.id} has no order`);
  return order;
}

/** The booking's checkout, opened the way /checkout/:id opens it (its order's). */
const openCheckout = (booking: Booking) =>
  openHostedCheckout(booking.orderId ?? 0, APP_URL, `/checkout/${booking.id}`);

const paymentsOf = (bookingId: number) =>
  db.select().from(payments).where(eq(payments.bookingId, bookingId)).all();
const eventsOf = (bookingId: number) =>
  db
    .select()
    .from(processedPaymentEvents)
    .where(eq(processedPaymentEvents.bookingId, bookingId))
    .all();
const historyOf = (bookingId: number) =>
  db.select().from(bookingHistory).where(eq(bookingHistory.bookingId, bookingId)).all();
const emailsOf = (bookingId: number) =>
  db.select().from(emailOutbox).where(eq(emailOutbox.bookingId, bookingId)).all();

function footprint(bookingId: number) {
  return {
    status: reload(bookingId).status,
    payments: paymentsOf(bookingId).length,
    events: eventsOf(bookingId).length,
    history: historyOf(bookingId).length,
    emails: emailsOf(bookingId).length,
  };
}

/** A booking with an open Stripe Checkout Session, opened the way the checkout page does. */
async function bookingWithSession() {
  const booking = createUnpaidBooking();
  await openCheckout(booking);
  const sessionId = orderOf(booking).checkoutSessionId;
  if (!sessionId) throw new Error("No session stored");
  return { booking, sessionId };
}

const signedEvent = (
  type: string,
  object: unknown,
  options: { id?: string; secret?: string } = {},
) => signedStripeEvent(type, object, { secret: WEBHOOK_SECRET, ...options });

function webhookRequest(payload: string, signature: string | null) {
  const headers = new Headers({
    "Content-Type": "application/json; charset=utf-8",
    "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
  });
  if (signature !== null) headers.set("Stripe-Signature", signature);
  return new Request(`${APP_URL}/api/payments/webhook`, { method: "POST", headers, body: payload });
}

type WebhookArgs = Parameters<typeof webhookRoute.action>[0];
type StatusArgs = Parameters<typeof statusRoute.loader>[0];

function postWebhook(payload: string, signature: string | null) {
  const request = webhookRequest(payload, signature);
  return webhookRoute.action({ request, params: {}, context: {} } as unknown as WebhookArgs);
}

let clientCounter = 0;
/** Each call a client address of its own unless given: the check is limited per address. */
function clientContext(client?: string) {
  const context = new RouterContextProvider();
  clientCounter += 1;
  context.set(clientAddressContext, client ?? `192.0.2.${clientCounter % 250}`);
  return context;
}

function getStatus(query: string, client?: string) {
  const request = new Request(`${APP_URL}/api/payments/status${query}`);
  const context = clientContext(client);
  return statusRoute.loader({ request, params: {}, context } as unknown as StatusArgs);
}

type SuccessArgs = Parameters<typeof successPage.loader>[0];
async function successPageState(sessionId: string, client?: string, extraQuery = "") {
  const request = new Request(
    `${APP_URL}/booking-success?session_id=${encodeURIComponent(sessionId)}${extraQuery}`,
  );
  const context = clientContext(client);
  const answer = await successPage.loader({
    request,
    params: {},
    context,
  } as unknown as SuccessArgs);
  return "data" in answer ? { ...answer.data, status: answer.init?.status } : answer;
}

function expectCleanLogs() {
  const all = logged.join("\n");
  expect(all).not.toContain(SECRET_KEY);
  expect(all).not.toContain(WEBHOOK_SECRET);
  expect(all).not.toMatch(/\n\s+at /);
}

// ---------------------------------------------------------------------------------------------

describe("openHostedCheckout", () => {
  it("sends Stripe the server's price, an idempotency key and an expiry it accepts, after extending the hold", async () => {
    // The form's contact e-mail is a stranger's: Stripe is given the account's own address.
    const booking = createUnpaidBooking({ email: "stranger@victim.example" });
    const before = Date.now();
    // Only the id is passed: the amount and the e-mail come from the database.
    const { url } = await openCheckout(booking);

    const creates = stripe.requestsTo("POST", "/v1/checkout/sessions");
    expect(creates).toHaveLength(1);
    const sent = creates[0];
    if (!sent) throw new Error("unreachable");
    const stored = reload(booking.id);
    const order = orderOf(booking);
    expect(url).toBe(`https://checkout.stripe.com/c/pay/${order.checkoutSessionId}`);
    expect(sent.params).toMatchObject({
      mode: "payment",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "15000",
      "line_items[0][price_data][product_data][name]": `Studio session #${booking.id}`,
      client_reference_id: `order-${booking.orderId}`,
      "metadata[orderId]": String(booking.orderId),
      "metadata[bookingIds]": String(booking.id),
      customer_email: db.select().from(users).where(eq(users.id, booking.userId)).get()?.email,
      success_url: `${APP_URL}/booking-success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${APP_URL}/checkout/${booking.id}`,
    });
    expect(sent.params["line_items[0][price_data][product_data][description]"]).toMatch(/2 hours/);
    expect(Object.keys(sent.params).filter((k) => k.startsWith("line_items[1]"))).toEqual([]);
    expect(sent.idempotencyKey).toBe(
      `checkout-order-${booking.orderId}-${order.checkoutExpiresAt}-${booking.id}x150`,
    );
    expect(sent.authorization).toBe(`Bearer ${SECRET_KEY}`);

    // The hold was extended to at least Stripe's 30-minute minimum, and the session ends with it.
    const hold = stored.holdExpiresAt ?? 0;
    expect(hold).toBeGreaterThanOrEqual(before + 31 * 60_000);
    expect(hold).toBeGreaterThan(booking.holdExpiresAt ?? 0);
    expect(Number(sent.params.expires_at)).toBe(Math.floor(hold / 1000));
    expect(Number(sent.params.expires_at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 1800);
    // The checkout's expiry is its order's; the session's plan marker went with its claim.
    expect(order.checkoutExpiresAt).toBe(hold);
    expect(stored.checkoutExpiresAt).toBeNull();
    expect(stored.claim).toBeNull();
    expect(stored.status).toBe("PENDING_PAYMENT");
    expect(stored.totalCost).toBe(150);
  });

  it("reuses the open session on a second call (second tab) instead of opening another", async () => {
    const { booking, sessionId } = await bookingWithSession();
    const hold = reload(booking.id).holdExpiresAt;

    const again = await openCheckout(booking);

    expect(again.url).toBe(`https://checkout.stripe.com/c/pay/${sessionId}`);
    expect(stripe.requestsTo("POST", "/v1/checkout/sessions")).toHaveLength(1);
    expect(stripe.requestsTo("GET", `/v1/checkout/sessions/${sessionId}`)).toHaveLength(1);
    expect(reload(booking.id).holdExpiresAt).toBe(hold);
  });

  it("gives a double submit one session", async () => {
    const booking = createUnpaidBooking();
    const [first, second] = await Promise.all([openCheckout(booking), openCheckout(booking)]);
    expect(first.url).toBe(second.url);
    const opened = [...stripe.sessions.values()].filter(
      (s) => s.metadata.orderId === String(booking.orderId),
    );
    expect(opened).toHaveLength(1);
    const keys = new Set(
      stripe.requestsTo("POST", "/v1/checkout/sessions").map((r) => r.idempotencyKey),
    );
    expect(keys.size).toBe(1);
  });

  it("opens a new session once the previous one expired", async () => {
    const { booking, sessionId } = await bookingWithSession();
    const previous = stripe.sessions.get(sessionId);
    if (!previous) throw new Error("unreachable");
    previous.status = "expired";

    const { url } = await openCheckout(booking);

    const stored = orderOf(booking);
    expect(stored.checkoutSessionId).not.toBe(sessionId);
    expect(url).toBe(`https://checkout.stripe.com/c/pay/${stored.checkoutSessionId}`);
    const keys = stripe.requestsTo("POST", "/v1/checkout/sessions").map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(2);
  });

  it("first closes a session Stripe made for an attempt whose answer was lost (finding 11)", async () => {
    const booking = createUnpaidBooking();
    const orderId = booking.orderId ?? 0;
    const until = Date.now() + 31 * 60_000;
    const expiresAt = Math.floor(until / 1000);
    const lost = stripe.addSession({
      id: "cs_test_lost",
      metadata: { orderId: String(orderId), bookingIds: String(booking.id) },
      expires_at: expiresAt,
    });
    const another = stripe.addSession({
      id: "cs_test_another_order",
      metadata: { orderId: String(orderId + 1000) },
      expires_at: expiresAt,
    });
    // The attempt was abandoned: its claims released, its plan's expiry kept on the order.
    db.update(orders)
      .set({ checkoutSessionId: null, checkoutExpiresAt: until })
      .where(eq(orders.id, orderId))
      .run();

    const { url } = await openCheckout(booking);

    expect(lost.status).toBe("expired");
    expect(another.status).toBe("open");
    const stored = orderOf(booking).checkoutSessionId;
    expect(stored).not.toBe("cs_test_lost");
    expect(url).toBe(`https://checkout.stripe.com/c/pay/${stored}`);
  });

  it("sends the customer to the success page, not to a second payment, when Stripe already took it", async () => {
    const { booking, sessionId } = await bookingWithSession();
    stripe.pay(sessionId);

    const { url } = await openCheckout(booking);

    expect(url).toBe(`${APP_URL}/booking-success?session_id=${sessionId}`);
    expect(stripe.requestsTo("POST", "/v1/checkout/sessions")).toHaveLength(1);
    expect(footprint(booking.id)).toMatchObject({ status: "PENDING", payments: 1 });
  });

  it.each([
    ["cancelled", { status: "CANCELLED" as const, holdExpiresAt: null }],
    ["whose hold ran out", { holdExpiresAt: Date.now() - 1000 }],
    ["free", { totalCost: 0, originalCost: 0, status: "CONFIRMED" as const }],
  ])("refuses a booking that is %s without calling Stripe", async (_label, overrides) => {
    const booking = createUnpaidBooking(overrides);
    await expect(openCheckout(booking)).rejects.toBeInstanceOf(CheckoutUnavailableError);
    expect(stripe.requests).toHaveLength(0);
    expect(orderOf(booking).checkoutSessionId).toBeNull();
  });

  it.each([["error" as const], ["unreachable" as const]])(
    "reports Stripe failing (%s) with a clear message, and a later attempt uses a fresh idempotency key",
    async (outage) => {
      const booking = createUnpaidBooking();
      stripe.setOutage(outage);

      const failure = await openCheckout(booking).catch((error: unknown) => error);

      expect(failure).toBeInstanceOf(CheckoutUnavailableError);
      expect((failure as Error).message).toBe(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
      expect(footprint(booking.id)).toMatchObject({ status: "PENDING_PAYMENT", payments: 0 });
      expect(orderOf(booking).checkoutSessionId).toBeNull();
      const failedKeys = new Set(
        stripe.requestsTo("POST", "/v1/checkout/sessions").map((r) => r.idempotencyKey),
      );
      expect(logged.join("\n")).toMatch(/\[error\] Stripe: could not open a Checkout Session/);
      expectCleanLogs();

      // Stripe saves a 500 under its key: a retry must not reuse that key.
      stripe.setOutage(null);
      const { url } = await openCheckout(booking);
      expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
      const last = stripe.requestsTo("POST", "/v1/checkout/sessions").at(-1);
      expect(failedKeys.has(last?.idempotencyKey ?? null)).toBe(false);
    },
  );
});

describe("paying from /checkout/:id or the dashboard's Pay Now dialog", () => {
  it("sends the customer to Stripe Checkout from either, charging nothing on the way", async () => {
    const booking = createUnpaidBooking();
    for (const path of [`/checkout/${booking.id}`, `/dashboard/sessions/${booking.id}/pay`]) {
      const request = new Request(`${APP_URL}${path}`, {
        method: "POST",
        body: new URLSearchParams({ paymentMethod: "card" }),
      });
      const onPaid = vi.fn();
      const response = await checkoutAction(
        request,
        new RouterContextProvider(),
        bookingTarget(booking),
        onPaid,
      );
      expect(response, path).toBeInstanceOf(Response);
      const sessionId = orderOf(booking).checkoutSessionId;
      expect((response as Response).status).toBe(302);
      expect((response as Response).headers.get("Location")).toBe(
        `https://checkout.stripe.com/c/pay/${sessionId}`,
      );
      expect(onPaid).not.toHaveBeenCalled();
    }
    // The second tab reused the first session; nothing was paid.
    expect(stripe.requestsTo("POST", "/v1/checkout/sessions")).toHaveLength(1);
    expect(footprint(booking.id)).toMatchObject({ status: "PENDING_PAYMENT", payments: 0 });
  });
});

describe("POST /api/payments/webhook", () => {
  it("passes the cross-site check: Stripe sends no Origin or Sec-Fetch-Site", () => {
    const { payload, signature } = signedEvent("checkout.session.completed", { id: "cs_x" });
    expect(isCrossSiteWrite(webhookRequest(payload, signature))).toBe(false);
  });

  it("pays the booking once for a signed checkout.session.completed, keeping only brand and last 4", async () => {
    const { booking, sessionId } = await bookingWithSession();
    stripe.pay(sessionId, { brand: "visa", last4: "4242" });
    const event = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));

    const response = await postWebhook(event.payload, event.signature);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(reload(booking.id).status).toBe("PENDING");
    const rows = paymentsOf(booking.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      amount: 150,
      paymentMethod: "card",
      transactionId: stripe.sessions.get(sessionId)?.payment_intent,
      paymentDetails: { brand: "visa", last4: "4242" },
    });
    expect(Object.keys(rows[0]?.paymentDetails ?? {}).sort()).toEqual(["brand", "last4"]);
    expect(JSON.stringify(rows[0]?.paymentDetails)).not.toMatch(/\d{5,}|exp|cvc|cvv/i);
    expect(eventsOf(booking.id).map((e) => e.id)).toEqual([event.id]);
    expect(historyOf(booking.id).map((h) => h.toStatus)).toContain("PENDING");
  });

  it("pays a booking whose checkout was opened before orders (its metadata names the booking alone)", async () => {
    const booking = createUnpaidBooking();
    const sessionId = `cs_test_before_orders_${booking.id}`;
    stripe.addSession({
      id: sessionId,
      amount_total: 15_000,
      client_reference_id: String(booking.id),
      metadata: { bookingId: String(booking.id) },
    });
    // Migration 0011 moved the booking's checkout to its order.
    db.update(orders)
      .set({ checkoutSessionId: sessionId })
      .where(eq(orders.id, booking.orderId ?? 0))
      .run();
    stripe.pay(sessionId);
    const event = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));

    expect((await postWebhook(event.payload, event.signature)).status).toBe(200);
    expect(footprint(booking.id)).toMatchObject({ status: "PENDING", payments: 1, events: 1 });
    expect(paymentsOf(booking.id)[0]?.transactionId).toBe(
      stripe.sessions.get(sessionId)?.payment_intent,
    );
  });

  it("changes nothing twice: the same event replayed, or another event for the same payment", async () => {
    const { booking, sessionId } = await bookingWithSession();
    stripe.pay(sessionId);
    const completed = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));
    expect((await postWebhook(completed.payload, completed.signature)).status).toBe(200);
    const after = footprint(booking.id);
    expect(after).toMatchObject({ status: "PENDING", payments: 1, events: 1 });
    const lookups = stripe.requestsTo("GET", /^\/v1\/checkout\/sessions\//).length;

    // Stripe delivers at least once: the very same event again (re-signed, as a retry is).
    const replay = signedEvent("checkout.session.completed", stripe.snapshot(sessionId), {
      id: completed.id,
    });
    const replayed = await postWebhook(replay.payload, replay.signature);
    expect(replayed.status).toBe(200);
    expect(footprint(booking.id)).toEqual(after);
    expect(stripe.requestsTo("GET", /^\/v1\/checkout\/sessions\//)).toHaveLength(lookups);

    // A different event about the same payment.
    const succeeded = signedEvent(
      "checkout.session.async_payment_succeeded",
      stripe.snapshot(sessionId),
    );
    expect((await postWebhook(succeeded.payload, succeeded.signature)).status).toBe(200);
    expect(footprint(booking.id)).toEqual({ ...after, events: 2 });
    expect(paymentsOf(booking.id)).toHaveLength(1);
  });

  it.each([
    [
      "a wrong secret",
      (e: { payload: string; signature: string }) => ({
        ...e,
        signature: signedEvent("checkout.session.completed", {}, { secret: "whsec_wrong" })
          .signature,
      }),
    ],
    ["no signature", (e: { payload: string; signature: string }) => ({ ...e, signature: null })],
    [
      "a body changed after signing",
      (e: { payload: string; signature: string }) => ({
        ...e,
        payload: e.payload.replace('"paid"', '"paid" '),
      }),
    ],
    ["garbage", () => ({ payload: "{not json", signature: "t=1,v1=abc" })],
  ])("answers 400 to %s and writes nothing", async (_label, tamper) => {
    const { booking, sessionId } = await bookingWithSession();
    stripe.pay(sessionId);
    const before = footprint(booking.id);
    const requestsBefore = stripe.requests.length;
    const genuine = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));
    const { payload, signature } = tamper(genuine);

    const response = await postWebhook(payload, signature);

    expect(response.status).toBe(400);
    expect((await response.json()).message).toEqual(expect.any(String));
    expect(footprint(booking.id)).toEqual(before);
    expect(stripe.requests).toHaveLength(requestsBefore);
  });

  it("acknowledges other event types and ignores them", async () => {
    const { booking, sessionId } = await bookingWithSession();
    const before = footprint(booking.id);
    const requestsBefore = stripe.requests.length;
    const event = signedEvent("checkout.session.expired", stripe.snapshot(sessionId));

    const response = await postWebhook(event.payload, event.signature);

    expect(response.status).toBe(200);
    expect(footprint(booking.id)).toEqual(before);
    expect(stripe.requests).toHaveLength(requestsBefore);
  });

  it.each([
    ["amount", { amount_total: 100 }],
    ["currency", { currency: "eur" }],
  ])(
    "does not mark a booking paid when the %s differs from the booking's",
    async (_label, overrides) => {
      const { booking, sessionId } = await bookingWithSession();
      stripe.pay(sessionId, undefined, overrides);
      const event = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));

      const response = await postWebhook(event.payload, event.signature);

      expect(response.status).toBe(200);
      expect(footprint(booking.id)).toMatchObject({
        status: "PENDING_PAYMENT",
        payments: 0,
        events: 0,
      });
      expect(await verifyCheckout(sessionId)).toEqual({
        paid: false,
        bookingId: booking.id,
        pending: false,
      });
      expect(logged.join("\n")).toMatch(
        new RegExp(
          `\\[error\\] Stripe: Checkout Session ${sessionId}.*its sessions cost 15000 usd; not recorded`,
        ),
      );
      expectCleanLogs();
    },
  );

  it("answers 503 and records nothing while Stripe is down, then pays when the event comes again", async () => {
    const { booking, sessionId } = await bookingWithSession();
    stripe.pay(sessionId);
    const event = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));
    stripe.setOutage("error");

    const failed = await postWebhook(event.payload, event.signature);

    expect(failed.status).toBe(503);
    expect(footprint(booking.id)).toMatchObject({
      status: "PENDING_PAYMENT",
      payments: 0,
      events: 0,
    });
    expectCleanLogs();

    stripe.setOutage(null);
    const retried = await postWebhook(event.payload, event.signature);
    expect(retried.status).toBe(200);
    expect(footprint(booking.id)).toMatchObject({ status: "PENDING", payments: 1, events: 1 });
  });

  it("answers GET with 405, and 404 when Stripe is not the provider", async () => {
    const response = webhookRoute.loader();
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");

    const provider = env.PAYMENT_PROVIDER;
    env.PAYMENT_PROVIDER = "sandbox";
    try {
      const { payload, signature } = signedEvent("checkout.session.completed", { id: "cs_x" });
      const refused = await postWebhook(payload, signature);
      expect(refused.status).toBe(404);
      expect(await refused.json()).toEqual({ message: "Not found" });
      expect(webhookRoute.loader().status).toBe(404);
    } finally {
      env.PAYMENT_PROVIDER = provider;
    }
  });
});

describe("GET /api/payments/status", () => {
  it("answers 400 without a session id", async () => {
    for (const query of ["", "?session_id=", "?session_id=%20"]) {
      const response = await getStatus(query);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        message: "Missing payment information",
        success: false,
      });
    }
    expect(stripe.requests).toHaveLength(0);
  });

  it("says not paid (yet: pending) while the session is open, and writes nothing", async () => {
    const { booking, sessionId } = await bookingWithSession();
    const before = footprint(booking.id);
    const response = await getStatus(`?session_id=${sessionId}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: false, pending: true });
    expect(footprint(booking.id)).toEqual(before);
  });

  it("asks Stripe when no webhook has come, pays the booking once, and the late webhook changes nothing", async () => {
    const { booking, sessionId } = await bookingWithSession();
    stripe.pay(sessionId, { brand: "mastercard", last4: "4444" });

    const first = await getStatus(`?session_id=${sessionId}`);
    expect(await first.json()).toEqual({ success: true, pending: false });
    expect(
      stripe.requestsTo("GET", `/v1/checkout/sessions/${sessionId}`).at(-1)?.params,
    ).toMatchObject({ "expand[0]": "payment_intent.latest_charge" });
    expect(footprint(booking.id)).toMatchObject({ status: "PENDING", payments: 1 });
    expect(paymentsOf(booking.id)[0]?.paymentDetails).toEqual({
      brand: "mastercard",
      last4: "4444",
    });

    const second = await getStatus(`?session_id=${sessionId}`);
    expect(await second.json()).toEqual({ success: true, pending: false });
    const settled = footprint(booking.id);
    expect(settled.payments).toBe(1);

    const late = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));
    expect((await postWebhook(late.payload, late.signature)).status).toBe(200);
    expect(footprint(booking.id)).toEqual({ ...settled, events: settled.events + 1 });
  });

  it.each([["error" as const], ["unreachable" as const]])(
    "keeps the booking unpaid and answers success: false, pending (ask again), when Stripe is failing (%s)",
    async (outage) => {
      const { booking, sessionId } = await bookingWithSession();
      stripe.pay(sessionId);
      stripe.setOutage(outage);

      const response = await getStatus(`?session_id=${sessionId}`);

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: false, pending: true });
      expect(footprint(booking.id)).toMatchObject({ status: "PENDING_PAYMENT", payments: 0 });
      expect(logged.join("\n")).toMatch(/\[error\] Stripe: could not look up Checkout Session/);
      expectCleanLogs();
    },
  );

  it("answers 404 with our message, without asking Stripe, for an id the site did not open", async () => {
    // A real, paid session on the same Stripe account that no booking here stored (another
    // app's, or one guessed), a session id never seen, and junk: none reaches Stripe.
    stripe.addSession({ id: "cs_test_notours", status: "complete", payment_status: "paid" });
    const ids = [
      "cs_test_notours",
      "cs_test_doesnotexist",
      "sandbox_123",
      "../../v1/charges",
      "cs_<script>",
      "x".repeat(200),
    ];
    for (const id of ids) {
      const response = await getStatus(`?session_id=${encodeURIComponent(id)}`);
      expect(response.status, id).toBe(404);
      expect(await response.json()).toEqual({
        message: statusRoute.UNKNOWN_PAYMENT_MESSAGE,
        success: false,
      });
      expect(await successPageState(id)).toMatchObject({ state: "failed", message: null });
    }
    expect(stripe.requests).toHaveLength(0);
  });

  it("limits checks per client address (page and API together): 429, Retry-After, no Stripe call", async () => {
    const { sessionId } = await bookingWithSession();
    const client = "2001:db8:99:1::1";
    for (let n = 0; n < env.PAYMENT_STATUS_LIMIT; n += 1) {
      const neighbour = `2001:db8:99:1::${(n % 2 === 0 ? 1 : 2).toString(16)}`;
      if (n % 2 === 0)
        expect((await getStatus(`?session_id=${sessionId}`, neighbour)).status).toBe(200);
      // The session is open: still being paid, so the page says it is verifying.
      else expect((await successPageState(sessionId, neighbour)).state).toBe("pending");
    }
    stripe.reset();
    const limited = await getStatus(`?session_id=${sessionId}`, client);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await limited.json()).message).toMatch(
      /^Too many payment checks\. Please try again in \d+ minutes?\.$/,
    );
    const page = await successPageState(sessionId, "2001:db8:99:1:ffff::7");
    expect(page).toMatchObject({ state: "limited", status: 429 });
    expect(page.message).toMatch(/^Too many payment checks/);
    expect(stripe.requests).toHaveLength(0);
    // Another address is not held back.
    expect((await getStatus(`?session_id=${sessionId}`, "2001:db8:99:2::1")).status).toBe(200);
  });

  it("shows the success page paid for the site's own session once Stripe took the money", async () => {
    const { booking, sessionId } = await bookingWithSession();
    stripe.pay(sessionId);
    expect(await successPageState(sessionId)).toEqual({
      state: "paid",
      message: null,
      pageToast: successPage.PAID_TOAST,
    });
    expect(footprint(booking.id)).toMatchObject({ status: "PENDING", payments: 1 });
  });
});

// ---------------------------------------------------------------------------------------------

describe("the success page while Stripe is still confirming the payment", () => {
  /** The customer finished on Stripe's page, but the money is not taken yet (processing). */
  async function processingSession() {
    const { booking, sessionId } = await bookingWithSession();
    stripe.pay(sessionId, undefined, { payment_status: "unpaid" });
    return { booking, sessionId };
  }

  it("says 'Verifying payment status...' (pending), names the next check for a browser without JavaScript, and writes nothing", async () => {
    const { booking, sessionId } = await processingSession();
    const before = footprint(booking.id);
    expect(await successPageState(sessionId)).toEqual({
      state: "pending",
      message: null,
      sessionId,
      refreshWithoutScript: `/booking-success?session_id=${sessionId}&check=2`,
    });
    const api = await getStatus(`?session_id=${sessionId}`);
    expect(await api.json()).toEqual({ success: false, pending: true });
    expect(footprint(booking.id)).toEqual(before);
  });

  it("shows 'Payment Successful!' on a later check once the webhook came, and records one payment", async () => {
    const { booking, sessionId } = await processingSession();
    expect((await successPageState(sessionId)).state).toBe("pending");
    // The JavaScript page polls the API: still pending.
    expect(await (await getStatus(`?session_id=${sessionId}`)).json()).toEqual({
      success: false,
      pending: true,
    });

    // Stripe takes the money a little later, and its webhook arrives.
    stripe.pay(sessionId, undefined, { payment_status: "paid" });
    const event = signedEvent(
      "checkout.session.async_payment_succeeded",
      stripe.snapshot(sessionId),
    );
    expect((await postWebhook(event.payload, event.signature)).status).toBe(200);

    expect(await (await getStatus(`?session_id=${sessionId}`)).json()).toEqual({
      success: true,
      pending: false,
    });
    // The refreshed page (no JavaScript) waits its pause, then answers paid, with the toast.
    const started = Date.now();
    expect(await successPageState(sessionId, undefined, "&check=2")).toEqual({
      state: "paid",
      message: null,
      pageToast: successPage.PAID_TOAST,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(successPage.REFRESH_PAUSE_MS - 50);
    expect(footprint(booking.id)).toMatchObject({ status: "PENDING", payments: 1, emails: 1 });
  }, 15_000);

  it("gives up after the last check: 'Payment Issue' with the failure toast, still nothing written", async () => {
    const { booking, sessionId } = await processingSession();
    const before = footprint(booking.id);
    const last = await successPageState(sessionId, undefined, `&check=${successPage.PAGE_CHECKS}`);
    expect(last).toEqual({ state: "failed", message: null, pageToast: successPage.FAILED_TOAST });
    expect(footprint(booking.id)).toEqual(before);
  }, 15_000);

  it("treats a check number out of range as the first check (no pause, not the last)", async () => {
    const { sessionId } = await processingSession();
    for (const check of ["0", "-1", "99", "2.5", "abc"]) {
      const started = Date.now();
      expect((await successPageState(sessionId, undefined, `&check=${check}`)).state).toBe(
        "pending",
      );
      expect(Date.now() - started).toBeLessThan(successPage.REFRESH_PAUSE_MS);
    }
  });

  it("answers a repeat check at once, without asking Stripe, for a reference the site did not open", async () => {
    const started = Date.now();
    expect(await successPageState("cs_test_notours", undefined, "&check=3")).toMatchObject({
      state: "failed",
    });
    expect(Date.now() - started).toBeLessThan(successPage.REFRESH_PAUSE_MS);
    expect(stripe.requests).toHaveLength(0);
  });

  it("is not pending for an expired session or one paid for another sum: 'Payment Issue' at once", async () => {
    const expired = await bookingWithSession();
    const session = stripe.sessions.get(expired.sessionId);
    if (!session) throw new Error("unreachable");
    session.status = "expired";
    expect(await successPageState(expired.sessionId)).toMatchObject({ state: "failed" });
    expect(await (await getStatus(`?session_id=${expired.sessionId}`)).json()).toEqual({
      success: false,
      pending: false,
    });

    const wrongSum = await bookingWithSession();
    stripe.pay(wrongSum.sessionId, undefined, { amount_total: 100 });
    expect(await successPageState(wrongSum.sessionId)).toMatchObject({ state: "failed" });
    expect(footprint(wrongSum.booking.id)).toMatchObject({ payments: 0 });
  });

  it("keeps a visit's checks well inside PAYMENT_STATUS_LIMIT", () => {
    // The first page load, then the polls (JavaScript) or the refreshes (without).
    const perVisit = Math.max(1 + successPage.POLL_ATTEMPTS, successPage.PAGE_CHECKS);
    expect(perVisit * 4).toBeLessThanOrEqual(env.PAYMENT_STATUS_LIMIT);
    // The polls are spread over half a minute, not fired at once.
    expect(successPage.POLL_ATTEMPTS * successPage.POLL_INTERVAL_MS).toBeGreaterThanOrEqual(30_000);
  });
});

describe("cancelling with Stripe", () => {
  const settings = () => ({ feePercent: 50, provider: paymentProvider() });

  /** A booking paid on Stripe Checkout and recorded from the success page. */
  async function paidBooking() {
    const { booking, sessionId } = await bookingWithSession();
    stripe.pay(sessionId);
    await verifyCheckout(sessionId);
    const paid = reload(booking.id);
    expect(paid.status).toBe("PENDING");
    return { booking: paid, sessionId };
  }

  it("refunds the payment intent in full, with an idempotency key, and records it once", async () => {
    const { booking, sessionId } = await paidBooking();
    const intent = stripe.sessions.get(sessionId)?.payment_intent;
    await cancelOwnBooking(
      { bookingId: booking.id, userId: booking.userId },
      Date.now(),
      settings(),
    );

    const [call] = stripe.requestsTo("POST", "/v1/refunds");
    expect(call?.params).toMatchObject({ payment_intent: intent, amount: "15000" });
    expect(call?.idempotencyKey).toBe(`refund-booking-${booking.id}`);
    expect(stripe.refunds).toHaveLength(1);
    const refund = paymentsOf(booking.id).find((row) => row.amount < 0);
    expect(refund).toMatchObject({ amount: -150, transactionId: stripe.refunds[0]?.id });
    expect(reload(booking.id).status).toBe("CANCELLED");
    expectCleanLogs();
  });

  it("records a refund Stripe already made for the booking instead of refunding again", async () => {
    const { booking, sessionId } = await paidBooking();
    const intent = stripe.sessions.get(sessionId)?.payment_intent ?? "";
    // An earlier attempt refunded in full at Stripe, then failed before recording it.
    await paymentProvider().refund({
      bookingId: booking.id,
      paymentTransactionId: intent,
      amount: 150,
      idempotencyKey: `refund-booking-${booking.id}`,
    });
    expect(stripe.refunds).toHaveLength(1);
    const { quote } = await cancelOwnBooking(
      { bookingId: booking.id, userId: booking.userId },
      booking.startsAt - 23 * 3_600_000,
      settings(),
    );
    expect(stripe.refunds).toHaveLength(1);
    expect(quote).toMatchObject({ kind: "full", refund: 150 });
    expect(paymentsOf(booking.id).reduce((sum, row) => sum + row.amount, 0)).toBe(0);
  });

  it("keeps the fee inside 24 hours: refunds half of what was paid", async () => {
    const { booking } = await paidBooking();
    await cancelOwnBooking(
      { bookingId: booking.id, userId: booking.userId, expectedRefund: 75 },
      booking.startsAt - 23 * 3_600_000,
      settings(),
    );
    expect(stripe.refunds.map((refund) => refund.amount)).toEqual([7500]);
    expect(paymentsOf(booking.id).reduce((sum, row) => sum + row.amount, 0)).toBe(75);
  });

  it("changes nothing while Stripe is down, then refunds once it is back", async () => {
    const { booking } = await paidBooking();
    const before = footprint(booking.id);
    stripe.setOutage("unreachable");
    await expect(
      cancelOwnBooking({ bookingId: booking.id, userId: booking.userId }, Date.now(), settings()),
    ).rejects.toThrow(CANCEL_UNAVAILABLE_MESSAGE);
    expect(footprint(booking.id)).toEqual(before);

    stripe.setOutage(null);
    await cancelOwnBooking(
      { bookingId: booking.id, userId: booking.userId },
      Date.now(),
      settings(),
    );
    expect(stripe.refunds).toHaveLength(1);
    expect(reload(booking.id).status).toBe("CANCELLED");
    expectCleanLogs();
  });

  it("closes the open checkout of an unpaid booking, so it cannot be paid after cancelling", async () => {
    const { booking, sessionId } = await bookingWithSession();
    await cancelOwnBooking(
      { bookingId: booking.id, userId: booking.userId },
      Date.now(),
      settings(),
    );
    expect(stripe.sessions.get(sessionId)?.status).toBe("expired");
    expect(stripe.refunds).toHaveLength(0);
    expect(reload(booking.id).status).toBe("CANCELLED");
  });

  it("records a checkout completed meanwhile, then refunds it rather than cancel for free", async () => {
    const { booking, sessionId } = await bookingWithSession();
    stripe.pay(sessionId);
    const { quote } = await cancelOwnBooking(
      { bookingId: booking.id, userId: booking.userId },
      Date.now(),
      settings(),
    );
    expect(quote).toEqual({ kind: "full", paid: 150, fee: 0, refund: 150 });
    expect(
      paymentsOf(booking.id)
        .map((row) => row.amount)
        .sort(),
    ).toEqual([-150, 150]);
    expect(reload(booking.id).status).toBe("CANCELLED");
  });
});
