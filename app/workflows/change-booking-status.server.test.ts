import { Refusal } from "#app/domain/refusal";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { blockedTimes, bookingHistory, bookings, coupons, orders, payments } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingRequest } from "#app/domain/booking-form";
import { PaymentProviderError, type RefundRequest } from "#app/integrations/payments/types";
import { getBooking } from "#app/models/booking.server";
import { bookSession } from "#app/workflows/book-session.server";
import {
  bulkChangeStatus,
  changeBookingStatus,
  SLOT_LOST_MESSAGE,
  type WorkflowSettings,
} from "#app/workflows/change-booking-status.server";
import { PaymentServiceError } from "#app/workflows/payment-provider.server";

import {
  BOOKED_AT,
  day,
  HOUR,
  MINUTE,
  makeUser,
  outboxFor,
  request,
  SETTINGS,
  recordSessionPayment,
} from "#tests/setup/workflow-bookings";
import type { PublicUser } from "#app/domain/user";

/**
 * The staff workflow against a real, freshly migrated SQLite file: history, e-mails, refunds
 * through a recording fake provider (one refund per booking, like the real ones), holds.
 * (The races with a provider in flight are in money-races.server.test.ts.)
 */

let customer: PublicUser;
let staff: PublicUser;

beforeEach(() => {
  customer = makeUser("client");
  staff = makeUser("staff", { isAdmin: true });
});

function unpaidBooking(overrides: Partial<BookingRequest> = {}, user = customer) {
  return bookSession(user, request(overrides), BOOKED_AT, SETTINGS);
}

function paidBooking(overrides: Partial<BookingRequest> = {}) {
  const booking = unpaidBooking(overrides);
  const paid = recordSessionPayment(
    {
      bookingId: booking.id,
      amount: booking.totalCost,
      method: "card",
      transactionId: `charge_${booking.id}`,
      details: { brand: "visa", last4: "4242" },
    },
    BOOKED_AT + MINUTE,
    0,
  );
  if (!paid.ok || paid.recorded !== "now") throw new Error("not paid");
  return paid.booking;
}

function fakeProvider(options: { fail?: boolean } = {}) {
  const refunds: RefundRequest[] = [];
  const closed: string[] = [];
  const made = new Map<number, { refundId: string; amount: number }>();
  const settings: WorkflowSettings = {
    feePercent: 50,
    bufferMinutes: 0,
    appUrl: "https://t.test",
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
      async findRefund() {
        return null;
      },
      async closeCheckout(checkoutId) {
        closed.push(checkoutId);
        return {
          id: checkoutId,
          status: "expired" as const,
          url: null,
          paid: false,
          order: null,
          amountTotal: null,
          currency: null,
          paymentId: null,
          card: { brand: "unknown", last4: "" },
        };
      },
    },
  };
  return { refunds, closed, settings };
}

const historyOf = (bookingId: number) =>
  db.select().from(bookingHistory).where(eq(bookingHistory.bookingId, bookingId)).all();
const paymentsOf = (bookingId: number) =>
  db.select().from(payments).where(eq(payments.bookingId, bookingId)).all();

describe("changing a booking's status forward", () => {
  it("walks every step, keeping who, when, from and to in the history", async () => {
    const booking = paidBooking();
    const { settings } = fakeProvider();
    const steps = ["CONFIRMED", "RECORDED", "POST_PRODUCTION", "COMPLETED"] as const;
    let at = BOOKED_AT + HOUR;
    for (const to of steps) {
      at += MINUTE;
      const changed = await changeBookingStatus(booking.id, to, staff, null, at, settings);
      expect(changed.status).toBe(to);
    }
    const staffRows = historyOf(booking.id).filter((row) => row.actorUserId === staff.id);
    expect(staffRows.map((row) => [row.fromStatus, row.toStatus])).toEqual([
      ["PENDING", "CONFIRMED"],
      ["CONFIRMED", "RECORDED"],
      ["RECORDED", "POST_PRODUCTION"],
      ["POST_PRODUCTION", "COMPLETED"],
    ]);
    expect(staffRows.map((row) => row.createdAt)).toEqual([
      BOOKED_AT + HOUR + MINUTE,
      BOOKED_AT + HOUR + 2 * MINUTE,
      BOOKED_AT + HOUR + 3 * MINUTE,
      BOOKED_AT + HOUR + 4 * MINUTE,
    ]);
  });

  it("queues the confirmation e-mail with the session's .ics, only on confirming", async () => {
    const booking = paidBooking();
    const { settings } = fakeProvider();
    await changeBookingStatus(
      booking.id,
      "CONFIRMED",
      staff,
      "Checked",
      BOOKED_AT + HOUR,
      settings,
    );
    const [email, ...more] = outboxFor(booking.id, "booking-confirmed");
    expect(more).toEqual([]);
    // The account's own address, never the contact e-mail typed in the form.
    expect(email?.toAddress).toBe(customer.email);
    expect(email?.subject).toContain("is confirmed");
    const attachment = email?.attachments?.[0];
    expect(attachment?.filename).toBe(`studio-session-${booking.id}.ics`);
    expect(attachment?.contentType).toContain("text/calendar");
    const ics = Buffer.from(attachment?.content ?? "", "base64").toString();
    expect(ics).toContain("BEGIN:VCALENDAR");
    expect(ics).toContain("STATUS:CONFIRMED");
    expect(historyOf(booking.id).at(-1)?.note).toBe("Checked");

    await changeBookingStatus(booking.id, "RECORDED", staff, null, BOOKED_AT + 2 * HOUR, settings);
    expect(outboxFor(booking.id, "booking-confirmed")).toHaveLength(1);
  });

  it("refuses backwards, out of final statuses and no-op changes, writing nothing", async () => {
    const booking = paidBooking();
    const { settings } = fakeProvider();
    await changeBookingStatus(booking.id, "RECORDED", staff, null, BOOKED_AT + HOUR, settings);
    const before = historyOf(booking.id).length;
    for (const to of ["PENDING", "CONFIRMED", "RECORDED", "PENDING_PAYMENT"] as const) {
      await expect(
        changeBookingStatus(booking.id, to, staff, null, BOOKED_AT + HOUR, settings),
      ).rejects.toMatchObject({ kind: "status-change-refused" });
    }
    expect(historyOf(booking.id)).toHaveLength(before);
    expect(getBooking(db, booking.id)?.status).toBe("RECORDED");
  });

  it("answers not-found for an unknown booking", async () => {
    const { settings } = fakeProvider();
    const error = await changeBookingStatus(999_999, "CONFIRMED", staff, null, BOOKED_AT, settings)
      .then(() => null)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Refusal);
    expect(error).toMatchObject({ kind: "not-found" });
  });

  it("takes an unpaid booking forward (paid another way): its hold is cleared, its checkout closed", async () => {
    const booking = unpaidBooking();
    expect(booking.holdExpiresAt).not.toBeNull();
    // The customer had opened a hosted checkout for it.
    db.update(orders)
      .set({ checkoutSessionId: `cs_test_${booking.id}` })
      .where(eq(orders.id, booking.orderId ?? 0))
      .run();
    const { settings, closed } = fakeProvider();
    const changed = await changeBookingStatus(
      booking.id,
      "PENDING",
      staff,
      null,
      BOOKED_AT + MINUTE,
      settings,
    );
    expect(changed).toMatchObject({ status: "PENDING", holdExpiresAt: null, claim: null });
    expect(closed).toEqual([`cs_test_${booking.id}`]);
  });

  it("still takes an expired hold forward when its slot is free", async () => {
    const booking = unpaidBooking();
    const { settings } = fakeProvider();
    const changed = await changeBookingStatus(
      booking.id,
      "CONFIRMED",
      staff,
      null,
      BOOKED_AT + HOUR,
      settings,
    );
    expect(changed.status).toBe("CONFIRMED");
  });

  it("refuses an expired hold whose slot a blocked time took, writing nothing", async () => {
    const booking = unpaidBooking();
    db.insert(blockedTimes)
      .values({
        startsAt: booking.startsAt + HOUR,
        endsAt: booking.endsAt + HOUR,
        reason: "Maintenance",
      })
      .run();
    const { settings } = fakeProvider();
    await expect(
      changeBookingStatus(booking.id, "PENDING", staff, null, BOOKED_AT + HOUR, settings),
    ).rejects.toThrow(SLOT_LOST_MESSAGE);
    expect(getBooking(db, booking.id)?.status).toBe("PENDING_PAYMENT");
    expect(historyOf(booking.id)).toHaveLength(1);
  });

  it("refuses an expired hold whose slot another live booking took", async () => {
    const booking = unpaidBooking();
    // Written directly: booking through the site would first expire the old hold.
    db.insert(bookings)
      .values({ ...booking, id: undefined, status: "CONFIRMED", holdExpiresAt: null })
      .run();
    const { settings } = fakeProvider();
    await expect(
      changeBookingStatus(booking.id, "CONFIRMED", staff, null, BOOKED_AT + HOUR, settings),
    ).rejects.toThrow(SLOT_LOST_MESSAGE);
    // While the hold is live, the slot is still the booking's own.
    const other = unpaidBooking({ recordingDate: day(1) });
    await expect(
      changeBookingStatus(other.id, "PENDING", staff, null, BOOKED_AT + MINUTE, settings),
    ).resolves.toMatchObject({ status: "PENDING" });
  });
});

describe("staff cancelling", () => {
  it("refunds a paid booking in full even inside 24 hours, as a negative payment", async () => {
    const booking = paidBooking();
    const { settings, refunds } = fakeProvider();
    const lastMinute = booking.startsAt - HOUR;
    const cancelled = await changeBookingStatus(
      booking.id,
      "CANCELLED",
      staff,
      "Engineer ill",
      lastMinute,
      settings,
    );
    expect(cancelled).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "Cancelled by the studio",
      cancelledAt: lastMinute,
    });
    expect(refunds).toEqual([
      {
        bookingId: booking.id,
        paymentTransactionId: `charge_${booking.id}`,
        amount: 400,
        idempotencyKey: `refund-booking-${booking.id}`,
      },
    ]);
    const refund = paymentsOf(booking.id).find((row) => row.amount < 0);
    expect(refund).toMatchObject({ amount: -400, paymentMethod: "refund" });
    const last = historyOf(booking.id).at(-1);
    expect(last).toMatchObject({
      actorUserId: staff.id,
      fromStatus: "PENDING",
      toStatus: "CANCELLED",
      note: "Cancelled by the studio; refunded $400.00 in full. Engineer ill",
    });
    const [email] = outboxFor(booking.id, "booking-cancelled");
    expect(email?.text).toContain("the studio had to cancel");
    expect(email?.text).toContain("refunding the full $400.00");
  });

  it("changes nothing when the provider cannot refund", async () => {
    const booking = paidBooking();
    const { settings } = fakeProvider({ fail: true });
    const historyBefore = historyOf(booking.id).length;
    await expect(
      changeBookingStatus(booking.id, "CANCELLED", staff, null, BOOKED_AT + HOUR, settings),
    ).rejects.toBeInstanceOf(PaymentServiceError);
    expect(getBooking(db, booking.id)?.status).toBe("PENDING");
    expect(paymentsOf(booking.id)).toHaveLength(1);
    expect(historyOf(booking.id)).toHaveLength(historyBefore);
    expect(outboxFor(booking.id, "booking-cancelled")).toEqual([]);
  });

  it("refunds once when asked twice (the second is refused, no second refund)", async () => {
    const booking = paidBooking();
    const { settings, refunds } = fakeProvider();
    await changeBookingStatus(booking.id, "CANCELLED", staff, null, BOOKED_AT + HOUR, settings);
    await expect(
      changeBookingStatus(booking.id, "CANCELLED", staff, null, BOOKED_AT + HOUR, settings),
    ).rejects.toMatchObject({ kind: "status-change-refused" });
    expect(refunds).toHaveLength(1);
    expect(paymentsOf(booking.id).filter((row) => row.amount < 0)).toHaveLength(1);
  });

  it("gives back the coupon use of a cancelled booking's order, unpaid or paid", async () => {
    const code = `STAFF_${customer.id}`;
    const coupon = db
      .insert(coupons)
      .values({ code, type: "PERCENTAGE", value: 10, maxUses: 0 })
      .returning()
      .get();
    const uses = () =>
      db.select().from(coupons).where(eq(coupons.id, coupon.id)).get()?.currentUses;
    const unpaid = unpaidBooking({ couponCode: code });
    const paid = paidBooking({ couponCode: code, recordingDate: day(1) });
    expect(uses()).toBe(2);
    const { settings, refunds } = fakeProvider();
    await changeBookingStatus(unpaid.id, "CANCELLED", staff, null, BOOKED_AT + MINUTE, settings);
    expect(uses()).toBe(1);
    expect(historyOf(unpaid.id).at(-1)?.note).toBe("Cancelled by the studio; nothing was paid");
    await changeBookingStatus(paid.id, "CANCELLED", staff, null, BOOKED_AT + MINUTE, settings);
    // Its order's only session no longer carries the discount: the use comes back, paid or not
    // (docs/product.md "Coupons").
    expect(uses()).toBe(0);
    expect(refunds.map((refund) => refund.amount)).toEqual([paid.totalCost]);
  });

  it("refuses cancelling a completed booking", async () => {
    const booking = paidBooking();
    const { settings, refunds } = fakeProvider();
    await changeBookingStatus(booking.id, "COMPLETED", staff, null, BOOKED_AT + HOUR, settings);
    await expect(
      changeBookingStatus(booking.id, "CANCELLED", staff, null, BOOKED_AT + HOUR, settings),
    ).rejects.toThrow("A completed booking cannot change status.");
    expect(refunds).toEqual([]);
  });
});

describe("bulk update", () => {
  it("updates one by one and reports X of Y, skipping what the rule refuses", async () => {
    const a = paidBooking();
    const b = paidBooking({ recordingDate: day(1) });
    const c = paidBooking({ recordingDate: day(2) });
    const { settings } = fakeProvider();
    await changeBookingStatus(c.id, "COMPLETED", staff, null, BOOKED_AT + HOUR, settings);
    const result = await bulkChangeStatus(
      [a.id, b.id, c.id, a.id],
      "CONFIRMED",
      staff,
      BOOKED_AT + 2 * HOUR,
      settings,
    );
    expect(result).toEqual({
      updated: 2,
      total: 3,
      failures: [{ bookingId: c.id, message: "A completed booking cannot change status." }],
    });
    expect(getBooking(db, a.id)?.status).toBe("CONFIRMED");
    expect(getBooking(db, b.id)?.status).toBe("CONFIRMED");
    expect(getBooking(db, c.id)?.status).toBe("COMPLETED");
  });

  it("counts an unknown id as not updated", async () => {
    const { settings } = fakeProvider();
    const result = await bulkChangeStatus([987_654], "RECORDED", staff, BOOKED_AT, settings);
    expect(result).toMatchObject({ updated: 0, total: 1 });
  });
});
