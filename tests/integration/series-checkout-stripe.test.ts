import { eq, inArray } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

/**
 * Paying a weekly series through Stripe Checkout (docs/product.md "Weekly series"), in-process
 * like tests/integration/stripe.test.ts: the real `stripe` client answered by MSW, the real
 * workflows and webhook route, a fresh SQLite file. Series come from the factory.
 */
const WEBHOOK_SECRET = "whsec_studio_booking_series_secret";
const APP_URL = "https://studio.test";

vi.hoisted(() => {
  process.env.PAYMENT_PROVIDER = "stripe";
  process.env.STRIPE_SECRET_KEY = "sk_test_51StudioBookingSeriesKey";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_studio_booking_series_secret";
  process.env.APP_URL = "https://studio.test";
  process.env.STRIPE_SUPPRESS_NOTICES = "true";
});

import { bookings, emailOutbox, orders, payments } from "#db/schema";
import { db } from "#app/db.server";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { getBooking } from "#app/models/booking.server";
import { getOrder } from "#app/models/order.server";
import * as webhookRoute from "#app/routes/api/payments.webhook";
import { cancelOwnBooking, cancelOwnFollowing } from "#app/workflows/cancel-booking.server";
import {
  CheckoutUnavailableError,
  NOTHING_TO_PAY_MESSAGE,
  openHostedCheckout,
} from "#app/workflows/checkout.server";
import { verifyCheckout } from "#app/workflows/fulfil-payment.server";
import { paymentProvider } from "#app/adapters.server";
import { createSeries } from "#tests/factories/series";
import { createUserWithoutPassword, uniqueUsername } from "#tests/factories/user";
import { signedStripeEvent } from "#tests/mocks/stripe";
import { stripeMockForThisFile } from "#tests/setup/stripe-mock-for-this-file";

const { stripe, logged } = stripeMockForThisFile();

let weekOffset = 0;
/** A factory series of `count` unpaid sessions, $150 each (2 hours at $75). */
function unpaidSeries(count = 5) {
  const user = createUserWithoutPassword(db, { username: uniqueUsername("series") });
  weekOffset += 1;
  const firstDate = addStudioDays(studioDateOf(Date.now()), 7 + weekOffset);
  return {
    user,
    ...createSeries(db, { user, firstDate, count, hours: 2, hourlyRate: 75, time: "19:00" }),
  };
}

const reload = (id: number) => {
  const booking = getBooking(db, id);
  if (!booking) throw new Error(`Booking ${id} vanished`);
  return booking;
};
const paymentsOf = (ids: number[]) =>
  db.select().from(payments).where(inArray(payments.bookingId, ids)).all();
const emailsTo = (address: string) =>
  db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address)).all();

const signedEvent = (type: string, object: unknown, id?: string) =>
  signedStripeEvent(type, object, { secret: WEBHOOK_SECRET, id });

type WebhookArgs = Parameters<typeof webhookRoute.action>[0];
function postWebhook(event: { payload: string; signature: string }) {
  const request = new Request(`${APP_URL}/api/payments/webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature },
    body: event.payload,
  });
  return webhookRoute.action({ request, params: {}, context: {} } as unknown as WebhookArgs);
}

/** The series' checkout, as /checkout/series/:id opens it: the order's one hosted checkout. */
const openSeriesCheckout = (seriesId: number, appUrl: string) =>
  openHostedCheckout(seriesId, appUrl, `/checkout/series/${seriesId}`);

async function seriesWithSession(count = 5) {
  const made = unpaidSeries(count);
  await openSeriesCheckout(made.series.id, APP_URL);
  const sessionId = getOrder(db, made.series.id)?.checkoutSessionId;
  if (!sessionId) throw new Error("No session stored on the series");
  return { ...made, sessionId };
}

describe("opening the series checkout", () => {
  it("sends Stripe one line item per session at its stored price, the order in the metadata, after extending every hold", async () => {
    const { series, bookings: sessions } = unpaidSeries(5);
    const before = Date.now();
    const { url } = await openSeriesCheckout(series.id, APP_URL);

    const [call] = stripe.requestsTo("POST", "/v1/checkout/sessions");
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    for (const [index, session] of sessions.entries()) {
      expect(call?.params[`line_items[${index}][price_data][unit_amount]`]).toBe("15000");
      expect(call?.params[`line_items[${index}][price_data][product_data][name]`]).toBe(
        `Studio session #${session.id}`,
      );
    }
    expect(call?.params["line_items[5][price_data][unit_amount]"]).toBeUndefined();
    expect(call?.params["metadata[orderId]"]).toBe(String(series.id));
    expect(call?.params.client_reference_id).toBe(`order-${series.id}`);
    expect(call?.params["metadata[bookingIds]"]).toBe(sessions.map((s) => s.id).join(","));
    expect(call?.params.cancel_url).toBe(`${APP_URL}/checkout/series/${series.id}`);
    const stored = getOrder(db, series.id);
    const lines = sessions.map((s) => `${s.id}x150`).join(".");
    expect(call?.idempotencyKey).toBe(
      `checkout-order-${series.id}-${stored?.checkoutExpiresAt}-${lines}`,
    );
    expect(stored?.checkoutSessionId).toBe(stripe.sessions.values().next().value?.id);
    expect(stripe.sessions.values().next().value?.amount_total).toBe(5 * 15000);
    for (const session of sessions) {
      const now = reload(session.id);
      // Held at least as long as the checkout, and no claim left behind.
      expect(now.holdExpiresAt).toBeGreaterThanOrEqual(before + 31 * 60_000);
      expect(now.claim).toBeNull();
    }
  });

  it("reuses the open session on a second call instead of opening another", async () => {
    const { series } = await seriesWithSession();
    const first = getOrder(db, series.id)?.checkoutSessionId;
    await openSeriesCheckout(series.id, APP_URL);
    expect(stripe.requestsTo("POST", "/v1/checkout/sessions")).toHaveLength(1);
    expect(getOrder(db, series.id)?.checkoutSessionId).toBe(first);
  });

  it("gives a double submit one session", async () => {
    const { series } = unpaidSeries(3);
    const [a, b] = await Promise.all([
      openSeriesCheckout(series.id, APP_URL),
      openSeriesCheckout(series.id, APP_URL),
    ]);
    expect(a.url).toBe(b.url);
    expect(
      new Set(stripe.requestsTo("POST", "/v1/checkout/sessions").map((r) => r.idempotencyKey)).size,
    ).toBe(1);
  });

  it("charges only the live sessions of a series where one was cancelled", async () => {
    const { series, bookings: sessions } = unpaidSeries(4);
    const [, cancelled] = sessions;
    await cancelOwnBooking({ bookingId: cancelled?.id ?? 0, userId: series.userId }, Date.now(), {
      feePercent: 50,
      provider: paymentProvider(),
    });
    await openSeriesCheckout(series.id, APP_URL);
    const [call] = stripe.requestsTo("POST", "/v1/checkout/sessions");
    const live = sessions.filter((s) => s.id !== cancelled?.id).map((s) => s.id);
    expect(call?.params["metadata[bookingIds]"]).toBe(live.join(","));
    expect(stripe.sessions.values().next().value?.amount_total).toBe(3 * 15000);
  });

  it("refuses a series with nothing left to pay, without asking Stripe", async () => {
    const { series, bookings: sessions } = unpaidSeries(2);
    db.update(bookings)
      .set({ status: "PENDING", holdExpiresAt: null })
      .where(
        inArray(
          bookings.id,
          sessions.map((s) => s.id),
        ),
      )
      .run();
    await expect(openSeriesCheckout(series.id, APP_URL)).rejects.toThrow(
      new CheckoutUnavailableError(NOTHING_TO_PAY_MESSAGE),
    );
    expect(stripe.requestsTo("POST", "/v1/checkout/sessions")).toHaveLength(0);
  });

  it("releases the claims and stores nothing when Stripe is down; the next attempt opens one", async () => {
    const { series, bookings: sessions } = unpaidSeries(2);
    stripe.setOutage("error");
    await expect(openSeriesCheckout(series.id, APP_URL)).rejects.toBeInstanceOf(
      CheckoutUnavailableError,
    );
    expect(getOrder(db, series.id)?.checkoutSessionId).toBeNull();
    for (const session of sessions) expect(reload(session.id).claim).toBeNull();
    stripe.setOutage(null);
    await openSeriesCheckout(series.id, APP_URL);
    expect(getOrder(db, series.id)?.checkoutSessionId).toMatch(/^cs_test_/);
  });
});

describe("recording a paid series", () => {
  it("records one payment row (and receipt) per session from the webhook, and one e-mail listing every session", async () => {
    const { user, bookings: sessions, sessionId } = await seriesWithSession(5);
    stripe.pay(sessionId, { brand: "visa", last4: "4242" });
    const event = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));

    const response = await postWebhook(event);
    expect(response.status).toBe(200);

    const intent = stripe.sessions.get(sessionId)?.payment_intent;
    const rows = paymentsOf(sessions.map((s) => s.id));
    expect(rows).toHaveLength(5);
    for (const session of sessions) {
      expect(reload(session.id).status).toBe("PENDING");
      expect(rows.find((row) => row.bookingId === session.id)).toMatchObject({
        amount: 150,
        transactionId: `${intent}:booking-${session.id}`,
        paymentDetails: { brand: "visa", last4: "4242" },
      });
    }
    const mails = emailsTo(user.email).filter((mail) => mail.kind === "payment-received");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(
      `Payment received for your 5 sessions from ${mails[0]?.subject.split(" from ")[1]}`,
    );
    expect(mails[0]?.text).toContain("$750");
    for (const session of sessions) expect(mails[0]?.text).toContain(`#${session.id}:`);
    expect(mails[0]?.attachments).toHaveLength(5);
  });

  it("records a series checkout opened before orders (its metadata names the series)", async () => {
    const { series, bookings: sessions } = unpaidSeries(2);
    const sessionId = `cs_test_before_orders_${series.id}`;
    stripe.addSession({
      id: sessionId,
      amount_total: 2 * 15000,
      client_reference_id: `series-${series.id}`,
      metadata: { seriesId: String(series.id), bookingIds: sessions.map((s) => s.id).join(",") },
    });
    // Migration 0011 kept the series' id and its checkout as its order's.
    db.update(orders).set({ checkoutSessionId: sessionId }).where(eq(orders.id, series.id)).run();
    stripe.pay(sessionId);
    const event = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));
    expect((await postWebhook(event)).status).toBe(200);
    const intent = stripe.sessions.get(sessionId)?.payment_intent;
    expect(
      paymentsOf(sessions.map((s) => s.id))
        .map((row) => row.transactionId)
        .sort(),
    ).toEqual(sessions.map((s) => `${intent}:booking-${s.id}`).sort());
  });

  it("changes nothing for a replayed webhook, nor for the success page after it", async () => {
    const { user, bookings: sessions, sessionId } = await seriesWithSession(3);
    stripe.pay(sessionId);
    const event = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));
    expect((await postWebhook(event)).status).toBe(200);
    const ids = sessions.map((s) => s.id);
    expect(paymentsOf(ids)).toHaveLength(3);

    const replay = signedEvent("checkout.session.completed", stripe.snapshot(sessionId), event.id);
    expect((await postWebhook(replay)).status).toBe(200);
    expect(await verifyCheckout(sessionId)).toMatchObject({ paid: true, pending: false });
    const other = signedEvent(
      "checkout.session.async_payment_succeeded",
      stripe.snapshot(sessionId),
    );
    expect((await postWebhook(other)).status).toBe(200);

    expect(paymentsOf(ids)).toHaveLength(3);
    expect(emailsTo(user.email).filter((mail) => mail.kind === "payment-received")).toHaveLength(1);
  });

  it("records once when the success page and the webhook race", async () => {
    const { user, bookings: sessions, sessionId } = await seriesWithSession(4);
    stripe.pay(sessionId);
    const event = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));
    const [page, hook] = await Promise.all([verifyCheckout(sessionId), postWebhook(event)]);
    expect(page?.paid).toBe(true);
    expect(hook.status).toBe(200);
    expect(paymentsOf(sessions.map((s) => s.id))).toHaveLength(4);
    expect(emailsTo(user.email).filter((mail) => mail.kind === "payment-received")).toHaveLength(1);
  });

  it("sends a second visit to the success page, not to a second payment, once Stripe took it", async () => {
    const { series, bookings: sessions, sessionId } = await seriesWithSession(2);
    stripe.pay(sessionId);
    const { url } = await openSeriesCheckout(series.id, APP_URL).catch(() => ({ url: "" }));
    // Paid and recorded now: there is nothing left to pay, or it names the success page.
    expect([`${APP_URL}/booking-success?session_id=${sessionId}`, ""]).toContain(url);
    expect(paymentsOf(sessions.map((s) => s.id))).toHaveLength(2);
    expect(stripe.requestsTo("POST", "/v1/checkout/sessions")).toHaveLength(1);
  });

  it("records nothing for a session paid for another sum, and says so in the log", async () => {
    const { bookings: sessions, sessionId } = await seriesWithSession(2);
    stripe.pay(sessionId, undefined, { amount_total: 100 });
    const event = signedEvent("checkout.session.completed", stripe.snapshot(sessionId));
    expect((await postWebhook(event)).status).toBe(200);
    expect(paymentsOf(sessions.map((s) => s.id))).toHaveLength(0);
    expect(logged.join("\n")).toContain("not recorded");
  });

  it("is not fooled by metadata naming another customer's booking", async () => {
    const mine = await seriesWithSession(2);
    const theirs = unpaidSeries(2);
    const session = stripe.sessions.get(mine.sessionId);
    if (!session) throw new Error("no session");
    session.metadata.bookingIds = `${mine.bookings[0]?.id},${theirs.bookings[0]?.id}`;
    stripe.pay(mine.sessionId);
    const event = signedEvent("checkout.session.completed", stripe.snapshot(mine.sessionId));
    expect((await postWebhook(event)).status).toBe(200);
    expect(paymentsOf([...mine.bookings, ...theirs.bookings].map((s) => s.id))).toHaveLength(0);
  });
});

describe("cancelling sessions of a series paid with one charge", () => {
  const settings = () => ({ feePercent: 50, provider: paymentProvider() });

  it("refunds each session on its own from the shared payment intent", async () => {
    const { series, bookings: sessions, sessionId } = await seriesWithSession(3);
    stripe.pay(sessionId);
    await verifyCheckout(sessionId);
    const intent = stripe.sessions.get(sessionId)?.payment_intent;
    const [first, second] = sessions;
    if (!first || !second) throw new Error("two sessions");

    await cancelOwnBooking({ bookingId: first.id, userId: series.userId }, Date.now(), settings());
    await cancelOwnBooking({ bookingId: second.id, userId: series.userId }, Date.now(), settings());

    const calls = stripe.requestsTo("POST", "/v1/refunds");
    expect(calls.map((call) => call.params.payment_intent)).toEqual([intent, intent]);
    expect(calls.map((call) => call.params.amount)).toEqual(["15000", "15000"]);
    expect(stripe.refunds).toHaveLength(2);
    for (const session of [first, second]) {
      expect(reload(session.id).status).toBe("CANCELLED");
      const refund = paymentsOf([session.id]).find((row) => row.amount < 0);
      expect(refund?.amount).toBe(-150);
    }
    expect(reload(sessions[2]?.id ?? 0).status).toBe("PENDING");
  });

  it("closes the series' open checkout before cancelling an unpaid session", async () => {
    const { series, bookings: sessions, sessionId } = await seriesWithSession(2);
    await cancelOwnBooking(
      { bookingId: sessions[0]?.id ?? 0, userId: series.userId },
      Date.now(),
      settings(),
    );
    expect(stripe.sessions.get(sessionId)?.status).toBe("expired");
    expect(reload(sessions[0]?.id ?? 0).status).toBe("CANCELLED");
    // The next payment opens a new checkout, for the live session only.
    await openSeriesCheckout(series.id, APP_URL);
    const calls = stripe.requestsTo("POST", "/v1/checkout/sessions");
    expect(calls).toHaveLength(2);
    expect(calls[1]?.params["metadata[bookingIds]"]).toBe(String(sessions[1]?.id));
    expect(
      db.select().from(orders).where(eq(orders.id, series.id)).get()?.checkoutSessionId,
    ).not.toBe(sessionId);
  });

  it("cancels this and all later sessions with one refund each from the shared intent, and one e-mail", async () => {
    const { user, series, bookings: sessions, sessionId } = await seriesWithSession(4);
    stripe.pay(sessionId);
    await verifyCheckout(sessionId);
    const intent = stripe.sessions.get(sessionId)?.payment_intent;
    const ids = sessions.map((s) => s.id);

    const { cancelled, stopped } = await cancelOwnFollowing(
      { bookingId: ids[1] ?? 0, userId: series.userId, expectedRefund: 450 },
      Date.now(),
      settings(),
    );
    expect(stopped).toBeNull();
    expect(cancelled.map(({ booking }) => booking.id)).toEqual(ids.slice(1));
    const calls = stripe.requestsTo("POST", "/v1/refunds");
    expect(calls.map((call) => [call.params.payment_intent, call.params.amount])).toEqual([
      [intent, "15000"],
      [intent, "15000"],
      [intent, "15000"],
    ]);
    expect(calls.map((call) => call.idempotencyKey)).toEqual(
      ids.slice(1).map((id) => `refund-booking-${id}`),
    );
    expect(ids.map((id) => reload(id).status)).toEqual([
      "PENDING",
      "CANCELLED",
      "CANCELLED",
      "CANCELLED",
    ]);
    expect(emailsTo(user.email).filter((mail) => mail.kind === "booking-cancelled")).toHaveLength(
      1,
    );
  });

  it("stops part way when Stripe fails, keeping what was cancelled and touching nothing after", async () => {
    const { series, bookings: sessions, sessionId } = await seriesWithSession(3);
    stripe.pay(sessionId);
    await verifyCheckout(sessionId);
    const ids = sessions.map((s) => s.id);
    // Cancel the first through the loop, then Stripe goes down for the rest.
    const provider = paymentProvider();
    let refunds = 0;
    const flaky = {
      ...provider,
      async refund(request: Parameters<typeof provider.refund>[0]) {
        refunds += 1;
        if (refunds > 1) stripe.setOutage("error");
        return provider.refund(request);
      },
    };
    const { cancelled, stopped } = await cancelOwnFollowing(
      { bookingId: ids[0] ?? 0, userId: series.userId },
      Date.now(),
      { feePercent: 50, provider: flaky },
    );
    expect(cancelled.map(({ booking }) => booking.id)).toEqual([ids[0]]);
    expect(stopped?.bookingId).toBe(ids[1]);
    expect(ids.map((id) => reload(id).status)).toEqual(["CANCELLED", "PENDING", "PENDING"]);
    // Stripe could not say whether it refunded the second: its claim stays for the sweeper.
    expect(ids.map((id) => reload(id).claim)).toEqual([null, "REFUND_UNKNOWN_BY_CUSTOMER", null]);
  });
});
