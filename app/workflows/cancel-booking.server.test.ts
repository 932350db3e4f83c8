import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bookingHistory, bookings, coupons, payments } from "#db/schema";
import { db } from "#app/db.server";
import { PaymentProviderError, type RefundRequest } from "#app/integrations/payments/types";
import { getActiveRetainer, getBooking } from "#app/models/booking.server";
import { bookSession } from "#app/workflows/book-session.server";
import { paidFor } from "#app/models/cancellation.server";
import { type CancellationSettings, cancelOwnBooking } from "#app/workflows/cancel-booking.server";
import { PaymentServiceError } from "#app/workflows/payment-provider.server";

import {
  BOOKED_AT,
  DAY,
  day,
  HOUR,
  MINUTE,
  makeUser,
  outboxFor,
  paidBooking,
  request,
  SETTINGS,
} from "#tests/setup/workflow-bookings";
import type { PublicUser } from "#app/domain/user";

/**
 * A customer cancelling (with refunds), against a real, freshly migrated SQLite file. The
 * payment provider is a recording fake with the provider's contract: one refund per booking,
 * returned again when asked again. (The races are in money-races.server.test.ts.)
 */

let customer: PublicUser;
let other: PublicUser;

beforeEach(() => {
  customer = makeUser("cancel");
  other = makeUser("other");
});

/** The provider's contract: one refund per booking; asking again returns the one made. */
function fakeProvider(options: { fail?: boolean } = {}) {
  const refunds: RefundRequest[] = [];
  const made = new Map<number, { refundId: string; amount: number }>();
  const settings: CancellationSettings = {
    feePercent: 50,
    provider: {
      async refund(refund) {
        if (options.fail) {
          throw new PaymentProviderError("The payment service is down.", { retryable: true });
        }
        refunds.push(refund);
        const earlier = made.get(refund.bookingId);
        if (earlier) return earlier;
        const fresh = { refundId: `refund_${refund.bookingId}`, amount: refund.amount };
        made.set(refund.bookingId, fresh);
        return fresh;
      },
      async findRefund(paymentTransactionId) {
        const bookingId = Number(paymentTransactionId.replace("charge_", ""));
        return made.get(bookingId) ?? null;
      },
      async closeCheckout(checkoutId) {
        throw new Error(`No checkout ${checkoutId} was opened in these tests`);
      },
    },
  };
  return { refunds, settings };
}

describe("cancelling", () => {
  it("cancels an unpaid booking at no charge and gives its coupon use back", () => {
    const code = `FREE10_${customer.id}`;
    const coupon = db
      .insert(coupons)
      .values({ code, type: "PERCENTAGE", value: 10, maxUses: 1 })
      .returning()
      .get();
    const booking = bookSession(customer, request({ couponCode: code }), BOOKED_AT, SETTINGS);
    expect(db.select().from(coupons).where(eq(coupons.id, coupon.id)).get()?.currentUses).toBe(1);
    const { refunds, settings } = fakeProvider();

    return cancelOwnBooking(
      { bookingId: booking.id, userId: customer.id },
      BOOKED_AT + MINUTE,
      settings,
    ).then(({ booking: cancelled, quote }) => {
      expect(cancelled.status).toBe("CANCELLED");
      expect(quote.kind).toBe("unpaid");
      expect(refunds).toEqual([]);
      expect(db.select().from(coupons).where(eq(coupons.id, coupon.id)).get()?.currentUses).toBe(0);
      expect(outboxFor(booking.id, "booking-cancelled")).toHaveLength(1);
      const history = db
        .select()
        .from(bookingHistory)
        .where(eq(bookingHistory.bookingId, booking.id))
        .all()
        .at(-1);
      expect(history).toMatchObject({ fromStatus: "PENDING_PAYMENT", toStatus: "CANCELLED" });
    });
  });

  it("refunds in full at 24 hours and one minute before the start", async () => {
    const booking = paidBooking(customer);
    const { refunds, settings } = fakeProvider();
    const now = booking.startsAt - DAY - MINUTE;
    const { quote } = await cancelOwnBooking(
      { bookingId: booking.id, userId: customer.id, expectedRefund: 400 },
      now,
      settings,
    );
    expect(quote).toEqual({ kind: "full", paid: 400, fee: 0, refund: 400 });
    expect(refunds).toEqual([
      {
        bookingId: booking.id,
        paymentTransactionId: `charge_${booking.id}`,
        amount: 400,
        idempotencyKey: `refund-booking-${booking.id}`,
      },
    ]);
    const refundRow = db
      .select()
      .from(payments)
      .where(eq(payments.bookingId, booking.id))
      .all()
      .find((row) => row.amount < 0);
    expect(refundRow).toMatchObject({ amount: -400, transactionId: `refund_${booking.id}` });
    expect(paidFor(db, booking.id)).toBe(0);
    const email = outboxFor(booking.id, "booking-cancelled")[0];
    expect(email?.text).toContain("full $400");
    const calendar = Buffer.from(email?.attachments?.[0]?.content ?? "", "base64").toString();
    expect(calendar).toContain("STATUS:CANCELLED");
    expect(calendar).toContain("METHOD:PUBLISH");
  });

  it("keeps the fee at 24 hours less one minute before the start", async () => {
    const booking = paidBooking(customer);
    const { refunds, settings } = fakeProvider();
    const { quote } = await cancelOwnBooking(
      { bookingId: booking.id, userId: customer.id, expectedRefund: 200 },
      booking.startsAt - DAY + MINUTE,
      settings,
    );
    expect(quote).toEqual({ kind: "late", paid: 400, fee: 200, refund: 200 });
    expect(refunds.map((refund) => refund.amount)).toEqual([200]);
    expect(paidFor(db, booking.id)).toBe(200);
    expect(outboxFor(booking.id, "booking-cancelled")[0]?.text).toContain("fee of $200");
  });

  it("gives back the retainer hours a cancelled session drew", async () => {
    const purchase = paidBooking(customer, { isRetainer: true, hoursNeeded: 2 });
    const drawing = bookSession(
      customer,
      request({ recordingDate: day(1), hoursNeeded: 3 }),
      BOOKED_AT,
      SETTINGS,
    );
    expect(drawing).toMatchObject({ retainerHoursDrawn: 3, status: "CONFIRMED", totalCost: 0 });
    expect(getActiveRetainer(db, customer.id, BOOKED_AT)?.usedHours).toBe(5);
    const { settings } = fakeProvider();
    await cancelOwnBooking({ bookingId: drawing.id, userId: customer.id }, BOOKED_AT, settings);
    expect(getActiveRetainer(db, customer.id, BOOKED_AT)?.usedHours).toBe(2);
    expect(getBooking(db, purchase.id)?.status).toBe("PENDING");
  });

  it("refuses when the refund differs from the one shown, and changes nothing", async () => {
    const booking = paidBooking(customer);
    const { refunds, settings } = fakeProvider();
    await expect(
      cancelOwnBooking(
        { bookingId: booking.id, userId: customer.id, expectedRefund: 400 },
        booking.startsAt - DAY + MINUTE,
        settings,
      ),
    ).rejects.toMatchObject({ kind: "refund-changed", quote: { refund: 200 } });
    expect(refunds).toEqual([]);
    expect(getBooking(db, booking.id)?.status).toBe("PENDING");
    expect(paidFor(db, booking.id)).toBe(400);
  });

  it("leaves the booking untouched when the provider cannot refund", async () => {
    const booking = paidBooking(customer);
    const { settings } = fakeProvider({ fail: true });
    await expect(
      cancelOwnBooking({ bookingId: booking.id, userId: customer.id }, BOOKED_AT, settings),
    ).rejects.toBeInstanceOf(PaymentServiceError);
    expect(getBooking(db, booking.id)).toMatchObject({ status: "PENDING", claim: null });
    expect(paidFor(db, booking.id)).toBe(400);
    expect(outboxFor(booking.id, "booking-cancelled")).toHaveLength(0);
    // The claim was released: once the provider is back, the cancellation goes through.
    const { settings: working } = fakeProvider();
    await cancelOwnBooking({ bookingId: booking.id, userId: customer.id }, BOOKED_AT, working);
    expect(getBooking(db, booking.id)).toMatchObject({ status: "CANCELLED", claim: null });
  });

  it("refunds once when the same cancellation arrives twice at once", async () => {
    const booking = paidBooking(customer);
    const { refunds, settings } = fakeProvider();
    const input = { bookingId: booking.id, userId: customer.id };
    const [first, second] = await Promise.allSettled([
      cancelOwnBooking(input, BOOKED_AT, settings),
      cancelOwnBooking(input, BOOKED_AT, settings),
    ]);
    // The first claimed the booking; the second was refused while the refund was in flight.
    expect(first.status).toBe("fulfilled");
    expect(second).toMatchObject({
      status: "rejected",
      reason: {
        kind: "not-cancellable",
        message: "This booking is being cancelled right now. Please reload the page in a moment.",
      },
    });
    expect(refunds.map((refund) => refund.amount)).toEqual([400]);
    expect(paidFor(db, booking.id)).toBe(0);
    expect(outboxFor(booking.id, "booking-cancelled")).toHaveLength(1);
    await expect(cancelOwnBooking(input, BOOKED_AT, settings)).rejects.toMatchObject({
      kind: "not-cancellable",
    });
  });

  it("records a refund an earlier attempt made but never recorded, as it was made", async () => {
    const booking = paidBooking(customer);
    const { settings } = fakeProvider();
    // An attempt more than 24 hours ahead refunded in full, but the answer was lost (a
    // timeout), so it released its claim and changed nothing.
    await settings.provider.refund({
      bookingId: booking.id,
      paymentTransactionId: `charge_${booking.id}`,
      amount: 400,
      idempotencyKey: `refund-booking-${booking.id}`,
    });
    // Retried inside the 24 hours, where a new quote would keep a fee.
    const { quote } = await cancelOwnBooking(
      { bookingId: booking.id, userId: customer.id },
      booking.startsAt - DAY + HOUR,
      settings,
    );
    expect(quote).toEqual({ kind: "full", paid: 400, fee: 0, refund: 400 });
    expect(paidFor(db, booking.id)).toBe(0);
    expect(getBooking(db, booking.id)?.status).toBe("CANCELLED");
  });

  it("refuses a retainer package while other sessions use its hours", async () => {
    const purchase = paidBooking(customer, { isRetainer: true, hoursNeeded: 2 });
    const drawing = bookSession(
      customer,
      request({ recordingDate: day(1), hoursNeeded: 2 }),
      BOOKED_AT,
      SETTINGS,
    );
    const { refunds, settings } = fakeProvider();
    const cancelPurchase = () =>
      cancelOwnBooking({ bookingId: purchase.id, userId: customer.id }, BOOKED_AT, settings);
    await expect(cancelPurchase()).rejects.toMatchObject({
      kind: "not-cancellable",
      message: expect.stringContaining("Other sessions use hours of this retainer package"),
    });
    expect(refunds).toEqual([]);
    // Once those sessions are cancelled, the package may go too.
    await cancelOwnBooking({ bookingId: drawing.id, userId: customer.id }, BOOKED_AT, settings);
    const { quote } = await cancelPurchase();
    expect(quote).toMatchObject({ kind: "full", refund: 999 });
  });

  it("treats another customer's booking as missing", async () => {
    const booking = paidBooking(customer);
    const { refunds, settings } = fakeProvider();
    await expect(
      cancelOwnBooking({ bookingId: booking.id, userId: other.id }, BOOKED_AT, settings),
    ).rejects.toMatchObject({ kind: "not-found" });
    expect(refunds).toEqual([]);
    expect(getBooking(db, booking.id)?.status).toBe("PENDING");
  });

  it("refuses a session that has started or been recorded", async () => {
    const booking = paidBooking(customer);
    const { settings } = fakeProvider();
    await expect(
      cancelOwnBooking({ bookingId: booking.id, userId: customer.id }, booking.startsAt, settings),
    ).rejects.toMatchObject({ kind: "not-cancellable" });
    db.update(bookings).set({ status: "RECORDED" }).where(eq(bookings.id, booking.id)).run();
    await expect(
      cancelOwnBooking({ bookingId: booking.id, userId: customer.id }, BOOKED_AT, settings),
    ).rejects.toMatchObject({ kind: "not-cancellable" });
  });
});
