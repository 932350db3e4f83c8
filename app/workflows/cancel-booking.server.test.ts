import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bookingHistory, bookings, coupons, payments } from "#db/schema";
import { db } from "#app/db.server";
import { PaymentProviderError, type RefundRequest } from "#app/integrations/payments/types";
import { getActiveRetainer, getBooking } from "#app/models/booking.server";
import { bookSession } from "#app/workflows/book-session.server";
import { paidFor } from "#app/models/cancellation.server";
import {
  type CancellationSettings,
  cancelForStudio,
  cancelOwnBooking,
} from "#app/workflows/cancel-booking.server";
import {
  CANCEL_UNAVAILABLE_MESSAGE,
  PaymentServiceError,
} from "#app/workflows/payment-provider.server";
import { settleStaleClaims } from "#app/workflows/settle-claims.server";
import { changeBookingStatus } from "#app/workflows/change-booking-status.server";
import { CLAIM_LEASE_MS } from "#app/domain/booking-claim";

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
    expect(getActiveRetainer(customer.id, BOOKED_AT)?.usedHours).toBe(5);
    const { settings } = fakeProvider();
    await cancelOwnBooking({ bookingId: drawing.id, userId: customer.id }, BOOKED_AT, settings);
    expect(getActiveRetainer(customer.id, BOOKED_AT)?.usedHours).toBe(2);
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

describe("a refund made whose answer is lost while the provider cannot be asked (FINDINGS.md 10)", () => {
  /** The provider makes the refund, then is unreachable (the answer and the question fail). */
  function unreachableOnceRefunded() {
    const fake = fakeProvider();
    let down = true;
    const lost = () => new PaymentProviderError("timed out", { retryable: true });
    const settings: CancellationSettings = {
      ...fake.settings,
      provider: {
        ...fake.settings.provider,
        async refund(refund) {
          const made = await fake.settings.provider.refund(refund);
          if (down) throw lost();
          return made;
        },
        async findRefund(paymentTransactionId, bookingId) {
          if (down) throw lost();
          return fake.settings.provider.findRefund(paymentTransactionId, bookingId);
        },
      },
    };
    return { ...fake, settings, back: () => (down = false) };
  }
  const refundRows = (bookingId: number) =>
    db
      .select()
      .from(payments)
      .where(eq(payments.bookingId, bookingId))
      .all()
      .filter((row) => row.amount < 0)
      .map((row) => [row.amount, row.transactionId]);
  const byCustomer = (bookingId: number, at: number, settings: CancellationSettings) =>
    cancelOwnBooking({ bookingId, userId: customer.id }, at, settings);
  const byStaff = (
    bookingId: number,
    staffId: number,
    at: number,
    settings: CancellationSettings,
  ) => cancelForStudio({ bookingId, actorUserId: staffId }, at, settings);
  /** Refused with the message a provider failure always shows. */
  const unavailable = (attempt: Promise<unknown>) =>
    expect(attempt).rejects.toThrow(CANCEL_UNAVAILABLE_MESSAGE);

  it("keeps the claim, and the sweeper records the refund once the lease is over", async () => {
    const booking = paidBooking(customer);
    const provider = unreachableOnceRefunded();
    await unavailable(byCustomer(booking.id, BOOKED_AT, provider.settings));
    expect(getBooking(db, booking.id)).toMatchObject({
      status: "PENDING",
      claim: "REFUND_UNKNOWN_BY_CUSTOMER",
    });
    expect(refundRows(booking.id)).toEqual([]);

    provider.back();
    const early = await settleStaleClaims(BOOKED_AT + CLAIM_LEASE_MS - MINUTE, provider.settings);
    expect(early).toEqual({ finished: 0, released: 0, failed: 0 });
    const swept = await settleStaleClaims(BOOKED_AT + CLAIM_LEASE_MS + MINUTE, provider.settings);
    expect(swept).toEqual({ finished: 1, released: 0, failed: 0 });
    expect(getBooking(db, booking.id)).toMatchObject({ status: "CANCELLED", claim: null });
    expect(refundRows(booking.id)).toEqual([[-400, `refund_${booking.id}`]]);
    expect(outboxFor(booking.id, "booking-cancelled")).toHaveLength(1);
  });

  it("lets the same customer try again at once: the retry takes the claim over, one refund", async () => {
    const booking = paidBooking(customer);
    const provider = unreachableOnceRefunded();
    await unavailable(byCustomer(booking.id, BOOKED_AT, provider.settings));
    expect(getBooking(db, booking.id)?.claim).toBe("REFUND_UNKNOWN_BY_CUSTOMER");
    provider.back();
    const { quote } = await byCustomer(booking.id, BOOKED_AT + MINUTE, provider.settings);
    expect(quote).toEqual({ kind: "full", paid: 400, fee: 0, refund: 400 });
    expect(getBooking(db, booking.id)).toMatchObject({ status: "CANCELLED", claim: null });
    // Asked twice with one key; the provider returned the refund it had made.
    expect(provider.refunds.map((refund) => refund.idempotencyKey)).toEqual([
      `refund-booking-${booking.id}`,
      `refund-booking-${booking.id}`,
    ]);
    expect(refundRows(booking.id)).toEqual([[-400, `refund_${booking.id}`]]);
    expect(outboxFor(booking.id, "booking-cancelled")).toHaveLength(1);
  });

  it("holds off any other canceller during the lease: staff the customer's, the customer the studio's", async () => {
    const staff = makeUser("staff", { isAdmin: true });
    const provider = unreachableOnceRefunded();
    const customers = paidBooking(customer);
    await unavailable(byCustomer(customers.id, BOOKED_AT, provider.settings));
    const studios = paidBooking(customer, { recordingDate: day(1) });
    await unavailable(byStaff(studios.id, staff.id, BOOKED_AT, provider.settings));
    const kept = [getBooking(db, customers.id), getBooking(db, studios.id)];
    expect(kept.map((booking) => booking?.claim)).toEqual([
      "REFUND_UNKNOWN_BY_CUSTOMER",
      "REFUND_UNKNOWN_BY_STUDIO",
    ]);

    provider.back();
    const later = BOOKED_AT + MINUTE;
    const held = {
      kind: "not-cancellable",
      message: "This booking is being cancelled right now. Please reload the page in a moment.",
    };
    await expect(byStaff(customers.id, staff.id, later, provider.settings)).rejects.toMatchObject(
      held,
    );
    await expect(byCustomer(studios.id, later, provider.settings)).rejects.toMatchObject(held);
    expect([getBooking(db, customers.id), getBooking(db, studios.id)]).toEqual(kept);
    expect(provider.refunds).toHaveLength(2);
  });

  it("lets staff take the studio's up again from the status change", async () => {
    const staff = makeUser("staff", { isAdmin: true });
    const provider = unreachableOnceRefunded();
    const booking = paidBooking(customer);
    const settings = { ...provider.settings, bufferMinutes: 0, appUrl: "https://t.test" };
    const cancel = (at: number) =>
      changeBookingStatus(booking.id, "CANCELLED", staff, null, at, settings);
    await unavailable(cancel(BOOKED_AT));
    expect(getBooking(db, booking.id)?.claim).toBe("REFUND_UNKNOWN_BY_STUDIO");
    provider.back();
    expect(await cancel(BOOKED_AT + MINUTE)).toMatchObject({ status: "CANCELLED", claim: null });
    expect(refundRows(booking.id)).toEqual([[-400, `refund_${booking.id}`]]);
  });
});
