import { eq, isNull } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { bookingHistory, orders, payments } from "#db/schema";
import { db } from "#app/db.server";
import { addStudioDays } from "#app/domain/studio-time";
import type { PublicUser } from "#app/domain/user";
import {
  type CheckoutRequest,
  type CheckoutSession,
  type HostedCheckoutProvider,
  PaymentProviderError,
} from "#app/integrations/payments/types";
import { getOrder } from "#app/models/order.server";
import { bookSeries } from "#app/workflows/book-series.server";
import { changeBookingStatus } from "#app/workflows/change-booking-status.server";
import {
  CheckoutUnavailableError,
  closeUnansweredCheckouts,
  openHostedCheckout,
} from "#app/workflows/checkout.server";
import { recordCheckoutSession } from "#app/workflows/fulfil-payment.server";
import { makeUser, request as bookingRequest, SETTINGS } from "#tests/setup/workflow-bookings";

/**
 * An order's hosted checkout when the provider's answer is lost (tests/invariants/FINDINGS.md,
 * finding 11): each plan has its own idempotency key, and a checkout opened for a plan the site
 * gave up on is closed before it can charge a session paid another way.
 */
let customer: PublicUser;
let staff: PublicUser;
beforeEach(() => {
  customer = makeUser("payer");
  staff = makeUser("staff", { isAdmin: true });
  // Every sweep reads the whole file: leave no earlier test's abandoned plan behind.
  db.update(orders).set({ checkoutExpiresAt: null }).where(isNull(orders.checkoutSessionId)).run();
});
afterEach(() => {
  vi.restoreAllMocks();
});

let firstDate = "2027-02-01";
/** A weekly series of two unpaid sessions. */
function unpaidSeries() {
  firstDate = addStudioDays(firstDate, 21);
  const { seriesId, bookings } = bookSeries(
    customer,
    bookingRequest({ recordingDate: firstDate, recordingTime: "19:00" }),
    { every: "week", count: 2, skip: [] },
    Date.now(),
    SETTINGS,
  );
  const [first, second] = bookings;
  if (!first || !second) throw new Error("two sessions expected");
  return { orderId: seriesId, first, second };
}

type Made = {
  id: string;
  key: string;
  params: Omit<CheckoutRequest, "idempotencyKey">;
  status: CheckoutSession["status"];
  paymentId: string | null;
};

/** Stripe's contract: a repeated key replays its checkout, and is refused with other parameters. */
function stripeLike() {
  const made = new Map<string, Made>();
  const state = { timeOutNext: false, down: false, closeAsks: 0 };
  const view = (checkout: Made): CheckoutSession => ({
    id: checkout.id,
    status: checkout.status,
    url: checkout.status === "open" ? `https://pay.test/${checkout.id}` : null,
    paid: checkout.status === "complete",
    order: {
      id: checkout.params.orderId,
      bookingIds: checkout.params.lines.map((line) => line.bookingId),
    },
    amountTotal: checkout.params.lines.reduce((sum, line) => sum + line.amount, 0) * 100,
    currency: "usd",
    paymentId: checkout.paymentId,
    card: { brand: "visa", last4: "4242" },
  });
  const find = (id: string) => {
    const checkout = made.get(id);
    if (!checkout) throw new PaymentProviderError(`No such ${id}`, { retryable: false });
    return checkout;
  };
  const unreachable = () => {
    if (state.down) throw new PaymentProviderError("down", { retryable: true });
  };
  const provider: HostedCheckoutProvider = {
    name: "stripe",
    checkout: "hosted",
    isCheckoutReference: (reference) => reference.startsWith("cs_"),
    async createCheckout({ idempotencyKey, ...params }) {
      unreachable();
      const replay = [...made.values()].find((checkout) => checkout.key === idempotencyKey);
      if (replay) {
        if (JSON.stringify(replay.params) !== JSON.stringify(params)) {
          throw new PaymentProviderError("Key reused with other parameters", { retryable: false });
        }
        return view(replay);
      }
      const checkout: Made = {
        id: `cs_${made.size + 1}`,
        key: idempotencyKey,
        params,
        status: "open",
        paymentId: null,
      };
      made.set(checkout.id, checkout);
      if (state.timeOutNext) {
        state.timeOutNext = false;
        throw new PaymentProviderError("timed out after it was made", { retryable: true });
      }
      return view(checkout);
    },
    async closeCheckoutsOf({ orderId, expiresAt }) {
      state.closeAsks += 1;
      unreachable();
      const open = [...made.values()].filter(
        (checkout) =>
          checkout.status === "open" &&
          checkout.params.orderId === orderId &&
          checkout.params.expiresAt === expiresAt,
      );
      for (const checkout of open) checkout.status = "expired";
      return open.map(view);
    },
    async retrieveCheckout(id) {
      unreachable();
      return view(find(id));
    },
    async closeCheckout(id) {
      unreachable();
      const checkout = find(id);
      if (checkout.status === "open") checkout.status = "expired";
      return view(checkout);
    },
    refund: async () => {
      throw new Error("No refunds in these tests");
    },
    findRefund: async () => null,
    verifyWebhook: () => {
      throw new Error("No webhooks in these tests");
    },
  };
  /** The customer pays on the provider's page. */
  const pay = (id: string) => {
    const checkout = find(id);
    checkout.status = "complete";
    checkout.paymentId = `pi_${id}`;
    return view(checkout);
  };
  return { provider, made, state, pay };
}

const open = (orderId: number, provider: HostedCheckoutProvider) =>
  openHostedCheckout(orderId, "https://t.test", `/checkout/series/${orderId}`, provider);

/** Staff take the first session's payment in cash: the plan the lost checkout charges is stale. */
async function paidOffline(bookingId: number, provider: HostedCheckoutProvider) {
  const settings = { feePercent: 50, bufferMinutes: 0, appUrl: "https://t.test", provider };
  await changeBookingStatus(bookingId, "PENDING", staff, "Paid in cash", Date.now(), settings);
}

/** The checkout opened for both sessions, whose answer the site never got. */
async function lostCheckout(stripe: ReturnType<typeof stripeLike>, orderId: number) {
  stripe.state.timeOutNext = true;
  await expect(open(orderId, stripe.provider)).rejects.toThrow(CheckoutUnavailableError);
  const lost = stripe.made.get("cs_1");
  expect(lost?.status).toBe("open");
  return lost as Made;
}

const paymentsOf = (bookingId: number) =>
  db.select().from(payments).where(eq(payments.bookingId, bookingId)).all();

describe("a hosted checkout opened but never answered (finding 11)", () => {
  it("is closed before a smaller plan gets a checkout of its own, under its own key", async () => {
    const { orderId, first, second } = unpaidSeries();
    const stripe = stripeLike();
    // One instant, as in the harness: both plans end when the first did.
    vi.spyOn(Date, "now").mockReturnValue(Date.now());
    const lost = await lostCheckout(stripe, orderId);
    await paidOffline(first.id, stripe.provider);

    const { url } = await open(orderId, stripe.provider);

    expect(url).toBe("https://pay.test/cs_2");
    const fresh = stripe.made.get("cs_2");
    expect(fresh?.params.lines.map((line) => line.bookingId)).toEqual([second.id]);
    expect(fresh?.key).not.toBe(lost.key);
    expect(lost.status).toBe("expired");
    expect(getOrder(db, orderId)?.checkoutSessionId).toBe("cs_2");
  });

  it("gives the same plan asked twice at once one checkout, under one key", async () => {
    const { orderId } = unpaidSeries();
    const stripe = stripeLike();
    const [a, b] = await Promise.all([
      open(orderId, stripe.provider),
      open(orderId, stripe.provider),
    ]);
    expect(a.url).toBe(b.url);
    expect(stripe.made.size).toBe(1);
  });

  it("is closed by the sweep, whatever left its plan stale, and forgotten once closed", async () => {
    const { orderId, first } = unpaidSeries();
    const stripe = stripeLike();
    const lost = await lostCheckout(stripe, orderId);
    await paidOffline(first.id, stripe.provider);

    expect(await closeUnansweredCheckouts(Date.now(), stripe.provider)).toEqual({
      closed: 1,
      failed: 0,
    });
    expect(lost.status).toBe("expired");
    expect(getOrder(db, orderId)).toMatchObject({
      checkoutSessionId: null,
      checkoutExpiresAt: null,
    });
    await closeUnansweredCheckouts(Date.now(), stripe.provider);
    expect(stripe.state.closeAsks).toBe(1);
  });

  it("stays on the order for a later sweep while the provider cannot be asked", async () => {
    const { orderId } = unpaidSeries();
    const stripe = stripeLike();
    const lost = await lostCheckout(stripe, orderId);
    const plan = getOrder(db, orderId)?.checkoutExpiresAt;
    stripe.state.down = true;

    expect(await closeUnansweredCheckouts(Date.now(), stripe.provider)).toEqual({
      closed: 0,
      failed: 1,
    });
    expect(getOrder(db, orderId)?.checkoutExpiresAt).toBe(plan);
    await expect(open(orderId, stripe.provider)).rejects.toThrow(CheckoutUnavailableError);
    expect(stripe.made.size).toBe(1);

    stripe.state.down = false;
    await closeUnansweredCheckouts(Date.now(), stripe.provider);
    expect(lost.status).toBe("expired");
  });

  it("paid anyway, never pays the session paid offline twice: its money goes to staff to refund", async () => {
    const { orderId, first, second } = unpaidSeries();
    const stripe = stripeLike();
    await lostCheckout(stripe, orderId);
    await paidOffline(first.id, stripe.provider);

    const paid = stripe.pay("cs_1");
    recordCheckoutSession(paid);
    recordCheckoutSession(paid);

    expect(paymentsOf(first.id)).toEqual([]);
    expect(paymentsOf(second.id)).toHaveLength(1);
    const notes = db
      .select({ note: bookingHistory.note })
      .from(bookingHistory)
      .where(eq(bookingHistory.bookingId, first.id))
      .all()
      .map((row) => row.note ?? "");
    expect(notes.filter((note) => note.includes("refund it in the Stripe dashboard"))).toEqual([
      "Stripe took $400.00 for this session in pi_cs_1, but it could not be recorded (Booking is PENDING): refund it in the Stripe dashboard.",
    ]);
    // Nothing is left open to close: the plan is dropped, and the order plans afresh.
    expect(await closeUnansweredCheckouts(Date.now(), stripe.provider)).toEqual({
      closed: 1,
      failed: 0,
    });
    expect(getOrder(db, orderId)?.checkoutExpiresAt).toBeNull();
  });
});
