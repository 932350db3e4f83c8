import { and, eq, gt, ne } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bookingHistory, bookings, orders, payments } from "#db/schema";
import { db } from "#app/db.server";
import type {
  CheckoutSession,
  HostedCheckoutProvider,
  RefundRequest,
} from "#app/integrations/payments/types";
import { isPayable } from "#app/domain/payments";
import { getBooking } from "#app/models/booking.server";
import { getOrder } from "#app/models/order.server";
import { bookSession } from "#app/workflows/book-session.server";
import { paidFor } from "#app/models/cancellation.server";
import { cancelOwnBooking } from "#app/workflows/cancel-booking.server";
import { openHostedCheckout } from "#app/workflows/checkout.server";
import {
  changeBookingStatus,
  type WorkflowSettings,
} from "#app/workflows/change-booking-status.server";

import {
  BOOKED_AT,
  day,
  makeUser,
  paidBooking,
  request,
  SETTINGS,
} from "#tests/setup/workflow-bookings";
import type { PublicUser } from "#app/domain/user";

/**
 * The money races of issue 12, against a real SQLite file. The provider's refund waits on a
 * gate the test opens, so a second request really runs while the first one's refund is in
 * flight (the window between the check and the write that the old code left open).
 */

let customer: PublicUser;
let staff: PublicUser;

beforeEach(() => {
  customer = makeUser("racer");
  staff = makeUser("staff", { isAdmin: true });
});

/**
 * A provider with the real contract (one refund per booking, the same one when asked again)
 * whose refund waits until `release()`: `inFlight` resolves once a refund is waiting.
 */
function gatedProvider() {
  const calls: RefundRequest[] = [];
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered = () => {};
  const inFlight = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const settings: WorkflowSettings = {
    feePercent: 50,
    bufferMinutes: 0,
    appUrl: "https://t.test",
    provider: {
      async refund(refund) {
        calls.push(refund);
        entered();
        await gate;
        return { refundId: `refund_${refund.bookingId}`, amount: refund.amount };
      },
      async findRefund() {
        return null;
      },
      async closeCheckout(checkoutId) {
        throw new Error(`No checkout ${checkoutId} was opened in these tests`);
      },
    },
  };
  return { calls, release, inFlight, settings };
}

/** Waits until the request is inside the provider call, or has ended without reaching it. */
async function untilInFlight(inFlight: Promise<void>, request: Promise<unknown>) {
  await Promise.race([
    inFlight,
    request.then(
      () => undefined,
      () => undefined,
    ),
  ]);
}

function settle<T>(promise: Promise<T>) {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

const refundRows = (bookingId: number) =>
  db
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, bookingId), eq(payments.paymentMethod, "refund")))
    .all();

/** Live sessions that draw hours from a retainer. */
const liveDraws = (retainerId: number) =>
  db
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.retainerBookingId, retainerId),
        gt(bookings.retainerHoursDrawn, 0),
        ne(bookings.status, "CANCELLED"),
      ),
    )
    .all();

describe("a retainer's refund vs a booking drawing its hours", () => {
  it("never both: a booking made while the $999 refund is in flight draws no hours from it", async () => {
    const retainer = paidBooking(customer, { isRetainer: true, hoursNeeded: 2 });
    expect(retainer.totalCost).toBe(999);
    const gated = gatedProvider();

    const cancelling = settle(
      cancelOwnBooking(
        { bookingId: retainer.id, userId: customer.id, expectedRefund: 999 },
        BOOKED_AT,
        gated.settings,
      ),
    );
    await untilInFlight(gated.inFlight, cancelling);
    // The customer books 6 hours meanwhile, which the retainer would pay for.
    const drawing = bookSession(
      customer,
      request({ recordingDate: day(1), hoursNeeded: 6 }),
      BOOKED_AT,
      SETTINGS,
    );
    gated.release();
    const cancelled = await cancelling;

    const refunded = refundRows(retainer.id).length > 0;
    const drawn = liveDraws(retainer.id);
    // Never both: money back for the package while a session still uses its hours.
    expect(
      refunded && drawn.length > 0,
      `the $999 was refunded while ${drawn.map((row) => `#${row.id} draws ${row.retainerHoursDrawn} h`).join(", ")}`,
    ).toBe(false);
    // The cancellation claimed first, so it is the one that goes through.
    expect(cancelled.ok).toBe(true);
    expect(getBooking(db, retainer.id)?.status).toBe("CANCELLED");
    expect(paidFor(db, retainer.id)).toBe(0);
    // The draw was refused: the session is booked at the hourly price, to be paid.
    expect(drawing).toMatchObject({
      retainerHoursDrawn: 0,
      retainerBookingId: null,
      status: "PENDING_PAYMENT",
    });
    expect(drawing.totalCost).toBeGreaterThan(0);
    expect(gated.calls).toHaveLength(1);
  });

  it("refuses the refund, without asking the provider, once a booking draws the hours", async () => {
    const retainer = paidBooking(customer, { isRetainer: true, hoursNeeded: 2 });
    const drawing = bookSession(
      customer,
      request({ recordingDate: day(1), hoursNeeded: 6 }),
      BOOKED_AT,
      SETTINGS,
    );
    expect(drawing).toMatchObject({ retainerHoursDrawn: 6, totalCost: 0 });
    const gated = gatedProvider();
    gated.release();

    await expect(
      cancelOwnBooking({ bookingId: retainer.id, userId: customer.id }, BOOKED_AT, gated.settings),
    ).rejects.toMatchObject({
      kind: "not-cancellable",
      message: expect.stringContaining("Other sessions use hours of this retainer package"),
    });
    expect(gated.calls).toEqual([]);
    expect(getBooking(db, retainer.id)?.status).toBe("PENDING");
    expect(paidFor(db, retainer.id)).toBe(999);
  });
});

describe("staff cancel vs staff Completed on one paid booking", () => {
  it("ends in one consistent state, never a refund recorded on a completed booking", async () => {
    const booking = paidBooking(customer);
    const plain = gatedProvider();
    plain.release();
    for (const to of ["CONFIRMED", "RECORDED", "POST_PRODUCTION"] as const) {
      await changeBookingStatus(booking.id, to, staff, null, BOOKED_AT, plain.settings);
    }
    const gated = gatedProvider();

    const cancelling = settle(
      changeBookingStatus(booking.id, "CANCELLED", staff, null, BOOKED_AT, gated.settings),
    );
    await untilInFlight(gated.inFlight, cancelling);
    const completing = await settle(
      changeBookingStatus(booking.id, "COMPLETED", staff, null, BOOKED_AT, plain.settings),
    );
    gated.release();
    const cancelled = await cancelling;

    const final = getBooking(db, booking.id);
    const refunds = refundRows(booking.id);
    // Exactly one of the two goes through.
    expect(
      { cancelled: cancelled.ok, completed: completing.ok },
      `both went through: ended ${final?.status} with ${refunds.length} refund(s)`,
    ).toSatisfy(({ cancelled, completed }) => cancelled !== completed);
    if (final?.status === "CANCELLED") {
      expect(refunds.map((row) => row.amount)).toEqual([-booking.totalCost]);
      expect(paidFor(db, booking.id)).toBe(0);
    } else {
      expect(final?.status).toBe("COMPLETED");
      expect(refunds).toEqual([]);
      expect(paidFor(db, booking.id)).toBe(booking.totalCost);
    }
    const changes = db
      .select()
      .from(bookingHistory)
      .where(eq(bookingHistory.bookingId, booking.id))
      .all()
      .map((row) => `${row.fromStatus}->${row.toStatus}`);
    expect(changes).not.toContain("COMPLETED->CANCELLED");
  });
});

describe("two refunds of one booking", () => {
  it("never both reach the provider: two cancels by the customer at once", async () => {
    const booking = paidBooking(customer);
    const gated = gatedProvider();
    const input = { bookingId: booking.id, userId: customer.id };

    const first = settle(cancelOwnBooking(input, BOOKED_AT, gated.settings));
    await untilInFlight(gated.inFlight, first);
    const second = settle(cancelOwnBooking(input, BOOKED_AT, gated.settings));
    // Give the second every chance to reach the provider before the first finishes.
    await new Promise((resolve) => setTimeout(resolve, 20));
    gated.release();
    const results = await Promise.all([first, second]);

    expect(gated.calls).toHaveLength(1);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(refundRows(booking.id)).toHaveLength(1);
    expect(getBooking(db, booking.id)?.status).toBe("CANCELLED");
  });

  it("never both reach the provider: the customer and staff cancelling at once", async () => {
    const booking = paidBooking(customer);
    const gated = gatedProvider();

    const byCustomer = settle(
      cancelOwnBooking({ bookingId: booking.id, userId: customer.id }, BOOKED_AT, gated.settings),
    );
    await untilInFlight(gated.inFlight, byCustomer);
    const byStaff = settle(
      changeBookingStatus(booking.id, "CANCELLED", staff, null, BOOKED_AT, gated.settings),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    gated.release();
    const results = await Promise.all([byCustomer, byStaff]);

    expect(gated.calls).toHaveLength(1);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(refundRows(booking.id)).toHaveLength(1);
    expect(paidFor(db, booking.id)).toBe(0);
  });
});

/** A hosted provider (like Stripe) whose opening or closing of a checkout waits on a gate. */
function gatedCheckouts() {
  const state = { opened: 0, closed: [] as string[] };
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered = () => {};
  const inFlight = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const session = (
    id: string,
    bookingId: number,
    status: CheckoutSession["status"],
  ): CheckoutSession => ({
    id,
    status,
    url: status === "open" ? `https://pay.test/${id}` : null,
    paid: false,
    order: { id: getBooking(db, bookingId)?.orderId ?? null, bookingIds: [bookingId] },
    amountTotal: null,
    currency: "usd",
    paymentId: null,
    card: { brand: "unknown", last4: "" },
  });
  const provider: HostedCheckoutProvider = {
    name: "stripe",
    checkout: "hosted",
    isCheckoutReference: (reference) => reference.startsWith("cs_"),
    async createCheckout(request) {
      entered();
      await gate;
      state.opened += 1;
      // One booking's order: its one line names the booking.
      const bookingId = request.lines[0]?.bookingId ?? 0;
      return session(`cs_test_${bookingId}`, bookingId, "open");
    },
    async retrieveCheckout(id) {
      return session(id, Number(id.replace("cs_test_", "")), "open");
    },
    async closeCheckout(id) {
      entered();
      await gate;
      state.closed.push(id);
      return session(id, Number(id.replace("cs_test_", "")), "expired");
    },
    async closeCheckoutsOf() {
      return [];
    },
    async refund(refund) {
      return { refundId: `refund_${refund.bookingId}`, amount: refund.amount };
    },
    async findRefund() {
      return null;
    },
    verifyWebhook() {
      throw new Error("No webhooks in these tests");
    },
  };
  const settings: WorkflowSettings = {
    feePercent: 50,
    bufferMinutes: 0,
    appUrl: "https://t.test",
    provider,
  };
  return { state, release, inFlight, provider, settings };
}

describe("checkouts vs cancellations", () => {
  it("refuses a cancellation while the checkout is being opened, never leaving a cancelled booking payable", async () => {
    const booking = bookSession(customer, request(), BOOKED_AT, SETTINGS);
    const hosted = gatedCheckouts();

    const opening = settle(
      openHostedCheckout(
        booking.orderId ?? 0,
        "https://t.test",
        `/checkout/${booking.id}`,
        hosted.provider,
      ),
    );
    await untilInFlight(hosted.inFlight, opening);
    const cancelling = await settle(
      cancelOwnBooking({ bookingId: booking.id, userId: customer.id }, BOOKED_AT, hosted.settings),
    );
    hosted.release();
    const opened = await opening;

    expect(cancelling).toMatchObject({
      ok: false,
      error: {
        kind: "not-cancellable",
        message:
          "A payment for this booking is being set up right now. Please try again in a moment.",
      },
    });
    expect(opened).toMatchObject({
      ok: true,
      value: { url: `https://pay.test/cs_test_${booking.id}` },
    });
    expect(getBooking(db, booking.id)).toMatchObject({ status: "PENDING_PAYMENT", claim: null });
    expect(getOrder(db, booking.orderId ?? 0)?.checkoutSessionId).toBe(`cs_test_${booking.id}`);

    // Cancelled afterwards, the open checkout is closed first.
    await cancelOwnBooking(
      { bookingId: booking.id, userId: customer.id },
      BOOKED_AT,
      hosted.settings,
    );
    expect(hosted.state.closed).toEqual([`cs_test_${booking.id}`]);
    expect(getBooking(db, booking.id)).toMatchObject({ status: "CANCELLED", claim: null });
  });

  it("refuses the customer's cancellation and payment while staff close the checkout to change its status forward", async () => {
    const booking = bookSession(customer, request(), BOOKED_AT, SETTINGS);
    db.update(orders)
      .set({ checkoutSessionId: `cs_test_${booking.id}` })
      .where(eq(orders.id, booking.orderId ?? 0))
      .run();
    const hosted = gatedCheckouts();

    const confirming = settle(
      changeBookingStatus(booking.id, "CONFIRMED", staff, null, BOOKED_AT, hosted.settings),
    );
    await untilInFlight(hosted.inFlight, confirming);
    const cancelling = await settle(
      cancelOwnBooking({ bookingId: booking.id, userId: customer.id }, BOOKED_AT, hosted.settings),
    );
    const meanwhile = getBooking(db, booking.id);
    hosted.release();
    const confirmed = await confirming;

    const closing =
      "This booking's online payment is being closed right now. Please try again in a moment.";
    expect(cancelling).toMatchObject({ ok: false, error: { message: closing } });
    expect(meanwhile && isPayable(meanwhile, BOOKED_AT)).toBe(false);
    expect(confirmed.ok).toBe(true);
    expect(getBooking(db, booking.id)).toMatchObject({ status: "CONFIRMED", claim: null });
    expect(hosted.state.closed).toEqual([`cs_test_${booking.id}`]);
  });
});
