import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { beforeEach, describe, expect, it } from "vitest";
import { bookingHistory, coupons, emailOutbox, orders, payments } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { addStudioDays } from "#app/domain/studio-time";
import type { PublicUser } from "#app/domain/user";
import { stripeProvider } from "#app/integrations/payments/stripe.server";
import {
  type CheckoutSession,
  type HostedCheckoutProvider,
  PaymentProviderError,
} from "#app/integrations/payments/types";
import { getBooking } from "#app/models/booking.server";
import { abandonCheckoutPlan, getOrder } from "#app/models/order.server";
import { Refusal } from "#app/domain/refusal";
import { bookSeries } from "#app/workflows/book-series.server";
import { bookSession } from "#app/workflows/book-session.server";
import { cancelFollowingForStudio, cancelOwnBooking } from "#app/workflows/cancel-booking.server";
import { CheckoutUnavailableError, openHostedCheckout } from "#app/workflows/checkout.server";
import { recordPayment } from "#app/workflows/fulfil-payment.server";
import {
  changeBookingStatus,
  type WorkflowSettings,
} from "#app/workflows/change-booking-status.server";
import { noteProviderRefund } from "#app/workflows/provider-refunds.server";
import { createCoupon } from "#tests/factories/catalog";
import {
  BOOKED_AT,
  MINUTE,
  makeUser,
  request as bookingRequest,
  SETTINGS,
} from "#tests/setup/workflow-bookings";

/**
 * Regressions of the seams between a single booking and a weekly series (docs/product.md
 * "Orders"), each one found by the invariants harness (tests/invariants) on the code before
 * orders: one coupon use per order, the order's checkout closed by "paid offline", and a refund
 * made in the provider's dashboard never taken for a session's.
 */
let customer: PublicUser;
let other: PublicUser;
let staff: PublicUser;
beforeEach(() => {
  customer = makeUser("orders");
  other = makeUser("second");
  staff = makeUser("staff", { isAdmin: true });
});

let firstDate = "2027-02-01";
function request(couponCode?: string) {
  firstDate = addStudioDays(firstDate, 140);
  return bookingRequest({
    recordingDate: firstDate,
    recordingTime: "19:00",
    ...(couponCode ? { couponCode } : {}),
  });
}
const usesOf = (couponId: number) =>
  db.select().from(coupons).where(eq(coupons.id, couponId)).get()?.currentUses;

function provider(closed: string[]): WorkflowSettings {
  const ended = (id: string): CheckoutSession => ({
    id,
    status: "expired",
    url: null,
    paid: false,
    order: null,
    amountTotal: null,
    currency: null,
    paymentId: null,
    card: { brand: "unknown", last4: "" },
  });
  return {
    feePercent: 50,
    bufferMinutes: 0,
    appUrl: "https://t.test",
    provider: {
      refund: async (refund) => ({ refundId: `re_${refund.bookingId}`, amount: refund.amount }),
      findRefund: async () => null,
      closeCheckout: async (id) => {
        closed.push(id);
        return ended(id);
      },
    },
  };
}

/** A weekly series of three of the customer's, paid by one charge. */
function paidSeries(charge = "pi_series") {
  const { bookings } = bookSeries(
    customer,
    request(),
    { every: "week", count: 3, skip: [] },
    BOOKED_AT,
    SETTINGS,
  );
  const paid = recordPayment(
    {
      chargeId: `${charge}_${bookings[0]?.id}`,
      sessions: bookings.map((booking) => ({ bookingId: booking.id, amount: booking.totalCost })),
      details: { brand: "visa", last4: "4242" },
    },
    BOOKED_AT + MINUTE,
  );
  expect(paid.paid).toHaveLength(3);
  return { bookings, charge: `${charge}_${bookings[0]?.id}` };
}

describe("one coupon use per order", () => {
  it("stays used while any session of a series keeps the discount (issue 25, bug 1)", async () => {
    const coupon = createCoupon(db, { type: "PERCENTAGE", value: 50, maxUses: 1 });
    const { bookings } = bookSeries(
      customer,
      request(coupon.code),
      { every: "week", count: 3, skip: [] },
      BOOKED_AT,
      SETTINGS,
    );
    expect(usesOf(coupon.id)).toBe(1);
    const [first, second, third] = bookings;
    if (!first || !second || !third) throw new Error("three sessions expected");

    await cancelOwnBooking({ bookingId: first.id, userId: customer.id }, BOOKED_AT + MINUTE, {
      ...provider([]),
    });
    // Two sessions still carry the 50 % off: the one use is still taken.
    expect(usesOf(coupon.id)).toBe(1);
    expect(() =>
      bookSession(other, request(coupon.code), BOOKED_AT + 2 * MINUTE, SETTINGS),
    ).toThrow(Refusal);

    for (const session of [second, third]) {
      await cancelOwnBooking({ bookingId: session.id, userId: customer.id }, BOOKED_AT + MINUTE, {
        ...provider([]),
      });
    }
    // None carries it now: the use comes back, once.
    expect(usesOf(coupon.id)).toBe(0);
    expect(
      bookSession(other, request(coupon.code), BOOKED_AT + 3 * MINUTE, SETTINGS).couponId,
    ).toBe(coupon.id);
  });

  it("is given back when the order's only session lapses unpaid, and only once", () => {
    const coupon = createCoupon(db, { type: "PERCENTAGE", value: 10, maxUses: 1 });
    const booking = bookSession(customer, request(coupon.code), BOOKED_AT, SETTINGS);
    expect(usesOf(coupon.id)).toBe(1);
    // The next booking sweeps the lapsed hold first (the hold is 30 minutes).
    bookSession(other, request(), BOOKED_AT + 31 * MINUTE, SETTINGS);
    expect(getBooking(db, booking.id)?.status).toBe("CANCELLED");
    expect(usesOf(coupon.id)).toBe(0);
    const order = db
      .select()
      .from(orders)
      .where(eq(orders.id, booking.orderId ?? 0))
      .get();
    expect(order?.couponId).toBeNull();
  });
});

describe("staff marking a session paid offline (issue 25, bug 4)", () => {
  it("closes its order's open checkout first, so the series' checkout cannot charge it again", async () => {
    const { seriesId, bookings } = bookSeries(
      customer,
      request(),
      { every: "week", count: 3, skip: [] },
      BOOKED_AT,
      SETTINGS,
    );
    db.update(orders)
      .set({ checkoutSessionId: "cs_test_series", checkoutExpiresAt: BOOKED_AT + 31 * MINUTE })
      .where(eq(orders.id, seriesId))
      .run();
    const closed: string[] = [];
    const session = bookings[0];
    if (!session) throw new Error("a session expected");
    const changed = await changeBookingStatus(
      session.id,
      "PENDING",
      staff,
      "Paid in cash",
      BOOKED_AT + MINUTE,
      provider(closed),
    );
    expect(changed.status).toBe("PENDING");
    expect(closed).toEqual(["cs_test_series"]);
    const order = db.select().from(orders).where(eq(orders.id, seriesId)).get();
    expect(order?.checkoutSessionId).toBeNull();
  });
});

describe("a refund made in Stripe's dashboard (issue 25, bug 5)", () => {
  /** A Stripe client whose charge already has one refund, made by hand (no metadata). */
  function stripeWithDashboardRefund() {
    const created: Stripe.RefundCreateParams[] = [];
    const client = {
      refunds: {
        list: async () => ({
          data: [{ id: "re_dashboard", amount: 20_000, status: "succeeded", metadata: {} }],
        }),
        create: async (params: Stripe.RefundCreateParams) => {
          created.push(params);
          return { id: "re_ours", amount: params.amount };
        },
      },
    } as unknown as Stripe;
    return { created, provider: stripeProvider({ secretKey: "sk_test_x", client }) };
  }

  it("is never found as a session's earlier refund", async () => {
    const { provider } = stripeWithDashboardRefund();
    expect(await provider.findRefund("pi_series", 42)).toBeNull();
  });

  it("does not stand in for the refund a cancellation asks for: a refund is made", async () => {
    const { provider, created } = stripeWithDashboardRefund();
    const made = await provider.refund({
      bookingId: 42,
      paymentTransactionId: "pi_series",
      amount: 400,
      idempotencyKey: "refund-booking-42",
    });
    expect(made).toEqual({ refundId: "re_ours", amount: 400 });
    expect(created).toEqual([
      { payment_intent: "pi_series", amount: 40_000, metadata: { bookingId: "42" } },
    ]);
  });
});

describe("a refund the provider reports (refund.created)", () => {
  const notesOf = (bookingId: number) =>
    db
      .select()
      .from(bookingHistory)
      .where(eq(bookingHistory.bookingId, bookingId))
      .all()
      .filter((row) => row.note?.startsWith("Stripe reports a refund"));
  const paymentCount = () => db.select().from(payments).all().length;

  it("made in the dashboard, naming no session: shown on every session it paid, never recorded", () => {
    const { bookings, charge } = paidSeries();
    const before = paymentCount();
    const refund = { id: "re_dash", paymentId: charge, amount: 150, bookingId: null };
    const event = { id: "evt_dash", type: "refund.created" };
    expect(noteProviderRefund(event, refund, BOOKED_AT + 2 * MINUTE)).toBe("shown-to-staff");
    for (const booking of bookings) {
      expect(notesOf(booking.id)).toHaveLength(1);
      expect(getBooking(db, booking.id)?.status).toBe("PENDING");
    }
    expect(paymentCount()).toBe(before);
    // A replayed event changes nothing.
    expect(noteProviderRefund(event, refund, BOOKED_AT + 3 * MINUTE)).toBe("duplicate");
    expect(notesOf(bookings[0]?.id ?? 0)).toHaveLength(1);
  });

  it("made by the site for one of its sessions: ours, nothing shown", () => {
    const { bookings, charge } = paidSeries();
    const second = bookings[1];
    if (!second) throw new Error("a second session expected");
    const refund = { id: "re_site", paymentId: charge, amount: 200, bookingId: second.id };
    expect(noteProviderRefund({ id: "evt_site", type: "refund.created" }, refund, BOOKED_AT)).toBe(
      "ours",
    );
    expect(bookings.flatMap((booking) => notesOf(booking.id))).toEqual([]);
  });

  it("naming a session another charge paid: shown on this charge's sessions", () => {
    const { bookings, charge } = paidSeries();
    const refund = { id: "re_odd", paymentId: charge, amount: 50, bookingId: 999_999 };
    expect(noteProviderRefund({ id: "evt_odd", type: "refund.created" }, refund, BOOKED_AT)).toBe(
      "shown-to-staff",
    );
    expect(notesOf(bookings[2]?.id ?? 0)).toHaveLength(1);
  });
});

describe("staff cancelling a series session and every later one", () => {
  it("cancels them in date order, refunds each in full, and sends one e-mail saying the studio cancelled", async () => {
    const { bookings } = paidSeries("pi_studio");
    const [, second, third] = bookings;
    if (!second || !third) throw new Error("three sessions expected");
    const mailBefore = db.select().from(emailOutbox).all().length;

    const { cancelled, stopped } = await cancelFollowingForStudio(
      { bookingId: second.id, actorUserId: staff.id },
      BOOKED_AT + 2 * MINUTE,
      provider([]),
    );
    expect(stopped).toBeNull();
    expect(
      cancelled.map(({ booking, quote }) => [booking.id, booking.status, quote.refund]),
    ).toEqual([
      [second.id, "CANCELLED", second.totalCost],
      [third.id, "CANCELLED", third.totalCost],
    ]);
    expect(getBooking(db, bookings[0]?.id ?? 0)?.status).toBe("PENDING");
    const mail = db.select().from(emailOutbox).all().slice(mailBefore);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toContain("the studio had to cancel them");
  });
});

describe("a refund whose answer is lost (found by the invariants harness)", () => {
  const lost = () => new PaymentProviderError("timed out", { retryable: true });
  function paidSingle() {
    const booking = bookSession(customer, request(), BOOKED_AT, SETTINGS);
    recordPayment(
      {
        chargeId: `pi_single_${booking.id}`,
        sessions: [{ bookingId: booking.id, amount: booking.totalCost }],
        details: { brand: "visa", last4: "4242" },
      },
      BOOKED_AT + MINUTE,
    );
    return booking;
  }

  it("is asked for once more: made after all, the cancellation is recorded with it", async () => {
    const booking = paidSingle();
    const settings = provider([]);
    settings.provider.refund = async () => {
      throw lost();
    };
    settings.provider.findRefund = async (_charge, bookingId) => ({
      refundId: `re_late_${bookingId}`,
      amount: booking.totalCost,
    });
    const { quote } = await cancelOwnBooking(
      { bookingId: booking.id, userId: customer.id },
      BOOKED_AT + 2 * MINUTE,
      settings,
    );
    expect(quote.refund).toBe(booking.totalCost);
    expect(getBooking(db, booking.id)).toMatchObject({ status: "CANCELLED", claim: null });
    const refunds = db.select().from(payments).where(eq(payments.bookingId, booking.id)).all();
    expect(refunds.map((row) => [row.amount, row.transactionId])).toEqual([
      [booking.totalCost, `pi_single_${booking.id}`],
      [-booking.totalCost, `re_late_${booking.id}`],
    ]);
  });

  it("not made: nothing changes and the booking is free to cancel again", async () => {
    const booking = paidSingle();
    const settings = provider([]);
    settings.provider.refund = async () => {
      throw lost();
    };
    await expect(
      cancelOwnBooking({ bookingId: booking.id, userId: customer.id }, BOOKED_AT, settings),
    ).rejects.toThrow("We could not reach the payment service");
    expect(getBooking(db, booking.id)).toMatchObject({ status: "PENDING", claim: null });
  });

  it("unknown (the provider cannot be asked either): left as it was, to be asked for again", async () => {
    const booking = paidSingle();
    const settings = provider([]);
    settings.provider.refund = async () => {
      throw lost();
    };
    settings.provider.findRefund = async () => {
      throw lost();
    };
    await expect(
      cancelOwnBooking({ bookingId: booking.id, userId: customer.id }, BOOKED_AT, settings),
    ).rejects.toThrow("We could not reach the payment service");
    expect(getBooking(db, booking.id)).toMatchObject({ status: "PENDING", claim: null });
  });
});

describe("a payment arriving after the hold ran out (found by the invariants harness)", () => {
  const HOLD = 30 * MINUTE;
  const pay = (bookingId: number, amount: number, at: number, chargeId = `pi_late_${bookingId}`) =>
    recordPayment(
      {
        chargeId,
        sessions: [{ bookingId, amount }],
        details: { brand: "visa", last4: "4242" },
      },
      at,
    );

  it("reinstates a swept session whose slot is free, taking its order's coupon use back", () => {
    const coupon = createCoupon(db, { type: "PERCENTAGE", value: 50, maxUses: 1 });
    const booking = bookSession(customer, request(coupon.code), BOOKED_AT, SETTINGS);
    // Another booking sweeps the lapsed hold: the use goes back.
    bookSession(other, request(), BOOKED_AT + HOLD + MINUTE, SETTINGS);
    expect(usesOf(coupon.id)).toBe(0);
    const paid = pay(booking.id, booking.totalCost, BOOKED_AT + HOLD + 2 * MINUTE);
    expect(paid.paid.map((row) => row.status)).toEqual(["PENDING"]);
    expect(usesOf(coupon.id)).toBe(1);
  });

  it("refuses it when the coupon's use was taken by someone else meanwhile", () => {
    const coupon = createCoupon(db, { type: "PERCENTAGE", value: 50, maxUses: 1 });
    const booking = bookSession(customer, request(coupon.code), BOOKED_AT, SETTINGS);
    bookSession(other, request(coupon.code), BOOKED_AT + HOLD + MINUTE, SETTINGS);
    const paid = pay(booking.id, booking.totalCost, BOOKED_AT + HOLD + 2 * MINUTE);
    expect(paid.paid).toEqual([]);
    expect(paid.refused).toHaveLength(1);
    expect(usesOf(coupon.id)).toBe(1);
  });

  it("refuses it when the slot was taken, so no two sessions are recorded in it", () => {
    const mine = request();
    const booking = bookSession(customer, mine, BOOKED_AT, SETTINGS);
    // Its hold ran out, so the slot was free for the next customer.
    const taken = bookSession(other, { ...mine }, BOOKED_AT + HOLD + MINUTE, SETTINGS);
    expect(taken.status).toBe("PENDING_PAYMENT");
    const paid = pay(booking.id, booking.totalCost, BOOKED_AT + HOLD + 2 * MINUTE);
    expect(paid.refused).toEqual([
      { bookingId: booking.id, reason: "Its hold ran out and its time slot has since been taken" },
    ]);
    expect(getBooking(db, booking.id)?.status).not.toBe("PENDING");
  });
});

describe("a checkout plan given up while the provider opens it (found by the invariants harness)", () => {
  it("closes the checkout the provider opened, so it cannot be paid beside the next one", async () => {
    const booking = bookSession(customer, request(), Date.now(), SETTINGS);
    const orderId = booking.orderId ?? 0;
    const closed: string[] = [];
    const session = (id: string, status: CheckoutSession["status"]): CheckoutSession => ({
      id,
      status,
      url: status === "open" ? `https://pay.test/${id}` : null,
      paid: false,
      order: { id: orderId, bookingIds: [booking.id] },
      amountTotal: booking.totalCost * 100,
      currency: "usd",
      paymentId: null,
      card: { brand: "unknown", last4: "" },
    });
    const provider = {
      name: "stripe",
      checkout: "hosted",
      isCheckoutReference: () => true,
      async createCheckout(request: { expiresAt: number }) {
        // The claim sweeper takes the plan for abandoned meanwhile.
        writeTransaction((tx) => abandonCheckoutPlan(tx, orderId, request.expiresAt));
        return session("cs_orphan", "open");
      },
      retrieveCheckout: async (id: string) => session(id, "open"),
      closeCheckout: async (id: string) => {
        closed.push(id);
        return session(id, "expired");
      },
    } as unknown as HostedCheckoutProvider;

    await expect(
      openHostedCheckout(orderId, "https://t.test", `/checkout/${booking.id}`, provider),
    ).rejects.toThrow(CheckoutUnavailableError);
    expect(closed).toEqual(["cs_orphan"]);
    expect(getOrder(db, orderId)?.checkoutSessionId).toBeNull();
    expect(getBooking(db, booking.id)?.claim).toBeNull();
  });
});
