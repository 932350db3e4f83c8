import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { type Booking, bookingHistory, bookings, emailOutbox, orders, payments } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { type BookingClaim, CLAIM_LEASE_MS } from "#app/domain/booking-claim";
import {
  type HostedCheckoutProvider,
  type MadeRefund,
  PaymentProviderError,
  type RefundRequest,
} from "#app/integrations/payments/types";
import { claimBooking } from "#app/models/booking-claim.server";
import { getBooking } from "#app/models/booking.server";
import { getOrder } from "#app/models/order.server";
import { bookSession } from "#app/workflows/book-session.server";
import { paidFor } from "#app/models/cancellation.server";
import { type CancellationSettings, cancelOwnBooking } from "#app/workflows/cancel-booking.server";
import { recordSessionPayment } from "#tests/setup/workflow-bookings";
import { settleStaleClaims } from "#app/workflows/settle-claims.server";
import { closeUnansweredCheckouts } from "#app/workflows/checkout.server";

import { BOOKED_AT, MINUTE, makeUser, request, SETTINGS } from "#tests/setup/workflow-bookings";
import type { PublicUser } from "#app/domain/user";

/**
 * The claim sweeper: claims left by a request that was cut off (a crash, a provider failure
 * whose release failed too) are finished when the provider made the refund, and released
 * otherwise; claims inside their lease are left alone. Against a real SQLite file.
 */
const AFTER_LEASE = BOOKED_AT + CLAIM_LEASE_MS + MINUTE;

let customer: PublicUser;
let staff: PublicUser;

beforeEach(() => {
  customer = makeUser("swept");
  staff = makeUser("staff", { isAdmin: true });
  // Every test sweeps the whole file: leave no claim from an earlier test behind.
  db.update(bookings).set({ claim: null, claimedAt: null, claimedBy: null }).run();
});

function paidBooking(): Booking {
  const booking = bookSession(customer, request(), BOOKED_AT, SETTINGS);
  const paid = recordSessionPayment(
    {
      bookingId: booking.id,
      amount: booking.totalCost,
      method: "card",
      transactionId: `charge_${booking.id}`,
      details: { brand: "visa", last4: "4242" },
    },
    BOOKED_AT,
    0,
  );
  if (!paid.ok || paid.recorded !== "now") throw new Error("not paid");
  return paid.booking;
}

/** A provider with the real contract that remembers its refunds; it can be down. */
function fakeProvider() {
  const state = { down: false };
  const refunds: RefundRequest[] = [];
  const lookups: string[] = [];
  const made = new Map<string, MadeRefund>();
  const settings: CancellationSettings = {
    feePercent: 50,
    provider: {
      async refund(refund) {
        refunds.push(refund);
        const earlier = made.get(refund.paymentTransactionId);
        if (earlier) return earlier;
        const fresh = { refundId: `refund_${refund.bookingId}`, amount: refund.amount };
        made.set(refund.paymentTransactionId, fresh);
        return fresh;
      },
      async findRefund(paymentTransactionId) {
        lookups.push(paymentTransactionId);
        if (state.down) {
          throw new PaymentProviderError("The payment service is down.", { retryable: true });
        }
        return made.get(paymentTransactionId) ?? null;
      },
      async closeCheckout(checkoutId) {
        throw new Error(`No checkout ${checkoutId} was opened in these tests`);
      },
    },
  };
  return { state, refunds, lookups, made, settings };
}

/** What a request cut off right after its claim transaction leaves behind. */
function claimLeftBehind(booking: Booking, claim: BookingClaim, by: number, at = BOOKED_AT) {
  const token = writeTransaction((tx) => claimBooking(tx, booking.id, claim, at, by));
  if (!token) throw new Error("not claimed");
  return token;
}

const refundRows = (bookingId: number) =>
  db
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, bookingId), eq(payments.paymentMethod, "refund")))
    .all();
const cancelEmails = (bookingId: number) =>
  db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.bookingId, bookingId), eq(emailOutbox.kind, "booking-cancelled")))
    .all();
const lastHistory = (bookingId: number) =>
  db.select().from(bookingHistory).where(eq(bookingHistory.bookingId, bookingId)).all().at(-1);

describe("the claim sweeper", () => {
  it("finishes a cancellation cut off after the provider refunded: recorded as made, once", async () => {
    const booking = paidBooking();
    const fake = fakeProvider();
    claimLeftBehind(booking, "CANCEL_BY_CUSTOMER", customer.id);
    // The refund was made; the process died before recording it.
    await fake.settings.provider.refund({
      bookingId: booking.id,
      paymentTransactionId: `charge_${booking.id}`,
      amount: 400,
      idempotencyKey: `refund-booking-${booking.id}`,
    });

    const result = await settleStaleClaims(AFTER_LEASE, fake.settings);

    expect(result).toEqual({ finished: 1, released: 0, failed: 0 });
    expect(fake.refunds).toHaveLength(1);
    expect(fake.lookups).toEqual([`charge_${booking.id}`]);
    expect(getBooking(db, booking.id)).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "Cancelled by the customer",
      claim: null,
    });
    expect(refundRows(booking.id).map((row) => row.amount)).toEqual([-400]);
    expect(paidFor(db, booking.id)).toBe(0);
    expect(cancelEmails(booking.id)).toHaveLength(1);
    expect(lastHistory(booking.id)).toMatchObject({
      actorUserId: customer.id,
      toStatus: "CANCELLED",
      note: expect.stringContaining("Finished by the claim sweeper"),
    });
    // Nothing is left to sweep.
    expect(await settleStaleClaims(AFTER_LEASE, fake.settings)).toEqual({
      finished: 0,
      released: 0,
      failed: 0,
    });
  });

  it("keeps the fee of a late cancellation the provider refunded in part", async () => {
    const booking = paidBooking();
    const fake = fakeProvider();
    claimLeftBehind(booking, "CANCEL_BY_CUSTOMER", customer.id);
    fake.made.set(`charge_${booking.id}`, { refundId: `refund_${booking.id}`, amount: 200 });

    await settleStaleClaims(AFTER_LEASE, fake.settings);

    expect(refundRows(booking.id).map((row) => row.amount)).toEqual([-200]);
    expect(paidFor(db, booking.id)).toBe(200);
    expect(lastHistory(booking.id)?.note).toContain("kept a $200.00 fee");
  });

  it("records a studio cancellation as the studio's, with the staff member who asked", async () => {
    const booking = paidBooking();
    const fake = fakeProvider();
    claimLeftBehind(booking, "CANCEL_BY_STUDIO", staff.id);
    fake.made.set(`charge_${booking.id}`, { refundId: `refund_${booking.id}`, amount: 400 });

    await settleStaleClaims(AFTER_LEASE, fake.settings);

    expect(getBooking(db, booking.id)).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "Cancelled by the studio",
    });
    expect(lastHistory(booking.id)).toMatchObject({ actorUserId: staff.id });
  });

  it("releases a cancellation cut off before any refund: the booking stays as it was", async () => {
    const booking = paidBooking();
    const fake = fakeProvider();
    claimLeftBehind(booking, "CANCEL_BY_CUSTOMER", customer.id);

    const result = await settleStaleClaims(AFTER_LEASE, fake.settings);

    expect(result).toEqual({ finished: 0, released: 1, failed: 0 });
    expect(fake.refunds).toEqual([]);
    expect(getBooking(db, booking.id)).toMatchObject({ status: "PENDING", claim: null });
    expect(refundRows(booking.id)).toEqual([]);
    expect(cancelEmails(booking.id)).toEqual([]);
    // The customer may cancel again now.
    await cancelOwnBooking(
      { bookingId: booking.id, userId: customer.id },
      BOOKED_AT,
      fake.settings,
    );
    expect(getBooking(db, booking.id)?.status).toBe("CANCELLED");
  });

  it("releases an unpaid booking's cancellation without asking the provider", async () => {
    const booking = bookSession(customer, request(), BOOKED_AT, SETTINGS);
    const fake = fakeProvider();
    claimLeftBehind(booking, "CANCEL_BY_CUSTOMER", customer.id);

    expect(await settleStaleClaims(AFTER_LEASE, fake.settings)).toMatchObject({ released: 1 });
    expect(fake.lookups).toEqual([]);
    expect(getBooking(db, booking.id)).toMatchObject({ status: "PENDING_PAYMENT", claim: null });
  });

  it("leaves a claim inside its lease alone: its request may still be running", async () => {
    const booking = paidBooking();
    const fake = fakeProvider();
    claimLeftBehind(booking, "CANCEL_BY_CUSTOMER", customer.id);

    const result = await settleStaleClaims(BOOKED_AT + CLAIM_LEASE_MS - MINUTE, fake.settings);

    expect(result).toEqual({ finished: 0, released: 0, failed: 0 });
    expect(fake.lookups).toEqual([]);
    expect(getBooking(db, booking.id)?.claim).toBe("CANCEL_BY_CUSTOMER");
  });

  it("keeps the claim when the provider cannot be asked, and settles it on a later sweep", async () => {
    const booking = paidBooking();
    const fake = fakeProvider();
    claimLeftBehind(booking, "CANCEL_BY_CUSTOMER", customer.id);
    fake.made.set(`charge_${booking.id}`, { refundId: `refund_${booking.id}`, amount: 400 });
    fake.state.down = true;

    expect(await settleStaleClaims(AFTER_LEASE, fake.settings)).toEqual({
      finished: 0,
      released: 0,
      failed: 1,
    });
    expect(getBooking(db, booking.id)).toMatchObject({
      status: "PENDING",
      claim: "CANCEL_BY_CUSTOMER",
    });

    fake.state.down = false;
    expect(await settleStaleClaims(AFTER_LEASE + MINUTE, fake.settings)).toMatchObject({
      finished: 1,
    });
    expect(getBooking(db, booking.id)?.status).toBe("CANCELLED");
  });

  it("releases a checkout left half-opened; its plan is dropped once what it opened is closed", async () => {
    const booking = bookSession(customer, request(), BOOKED_AT, SETTINGS);
    const until = BOOKED_AT + 31 * MINUTE;
    // The plan as planCheckout leaves it: on the order (no session stored yet) and on the
    // session it claimed.
    db.update(orders)
      .set({ checkoutSessionId: null, checkoutExpiresAt: until })
      .where(eq(orders.id, booking.orderId ?? 0))
      .run();
    db.update(bookings)
      .set({ checkoutExpiresAt: until, holdExpiresAt: until })
      .where(eq(bookings.id, booking.id))
      .run();
    claimLeftBehind(booking, "CHECKOUT_OPEN", customer.id);
    const fake = fakeProvider();

    expect(await settleStaleClaims(AFTER_LEASE, fake.settings)).toMatchObject({ released: 1 });
    expect(getBooking(db, booking.id)).toMatchObject({ claim: null, checkoutExpiresAt: null });
    // The provider may have opened a checkout for it: the order keeps the plan until it is closed.
    expect(getOrder(db, booking.orderId ?? 0)?.checkoutExpiresAt).toBe(until);
    const asked: { orderId: number; expiresAt: number }[] = [];
    const hosted = {
      checkout: "hosted",
      closeCheckoutsOf: async (plan: { orderId: number; expiresAt: number }) => {
        asked.push(plan);
        return [];
      },
    } as unknown as HostedCheckoutProvider;
    await closeUnansweredCheckouts(until - MINUTE, hosted);
    expect(asked).toEqual([{ orderId: booking.orderId, expiresAt: until }]);
    expect(getOrder(db, booking.orderId ?? 0)).toMatchObject({
      checkoutSessionId: null,
      checkoutExpiresAt: null,
    });
  });

  it("finishes a request slower than the lease; when it comes back it records nothing twice", async () => {
    const booking = paidBooking();
    const fake = fakeProvider();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: CancellationSettings = {
      ...fake.settings,
      provider: {
        ...fake.settings.provider,
        async refund(refund) {
          const made = await fake.settings.provider.refund(refund);
          await gate;
          return made;
        },
      },
    };
    const cancelling = cancelOwnBooking(
      { bookingId: booking.id, userId: customer.id },
      BOOKED_AT,
      slow,
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await settleStaleClaims(AFTER_LEASE, fake.settings)).toMatchObject({ finished: 1 });
    release();
    await cancelling;

    expect(fake.refunds).toHaveLength(1);
    expect(refundRows(booking.id)).toHaveLength(1);
    expect(cancelEmails(booking.id)).toHaveLength(1);
    expect(getBooking(db, booking.id)).toMatchObject({ status: "CANCELLED", claim: null });
  });
});
