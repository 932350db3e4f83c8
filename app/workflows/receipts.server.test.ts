import { and, eq, max } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { payments, receipts } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import type { EmailAttachment } from "#app/domain/outbox";
import { formatDollars } from "#app/domain/pricing";
import type { ReceiptKind } from "#app/domain/receipts";
import { studioInstant } from "#app/domain/studio-time";
import type { PublicUser } from "#app/domain/user";
import { receiptPdf } from "#app/emails/receipt-pdf.server";
import { insertPayment, issueMissingReceipts, receiptOfPayment } from "#app/models/receipt.server";
import { bookSession } from "#app/workflows/book-session.server";
import { type CancellationSettings, cancelOwnBooking } from "#app/workflows/cancel-booking.server";
import { pdfWords } from "#tests/setup/pdf-text";
import {
  BOOKED_AT,
  MINUTE,
  makeUser,
  outboxFor,
  paidBooking,
  request,
  SETTINGS,
  recordSessionPayment,
} from "#tests/setup/workflow-bookings";

/**
 * Receipts and credit notes (docs/product.md "Receipts") through the real workflows on a real
 * SQLite file: each payment's document is issued in its transaction, numbered per kind and
 * studio-time year without a gap, and carried by its e-mail; the PDFs are read back with
 * pdftotext.
 */

let customer: PublicUser;

beforeEach(() => {
  customer = makeUser("receipts");
});

function refundingProvider(): CancellationSettings {
  return {
    feePercent: 50,
    provider: {
      async refund(refund) {
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
}

const paymentsOf = (bookingId: number) =>
  db.select().from(payments).where(eq(payments.bookingId, bookingId)).all();

const highest = (kind: ReceiptKind, year: number) =>
  db
    .select({ n: max(receipts.number) })
    .from(receipts)
    .where(and(eq(receipts.kind, kind), eq(receipts.year, year)))
    .get()?.n ?? 0;

function pdfOf(attachments: EmailAttachment[] | null | undefined): Buffer {
  const pdf = attachments?.find((a) => a.contentType === "application/pdf");
  if (!pdf) throw new Error("no PDF attached");
  return Buffer.from(pdf.content, "base64");
}

/** A booking of `customer`'s at BOOKED_AT, paid by card at `paidAt`. */
function payAt(paidAt: number, overrides = {}) {
  const booking = bookSession(customer, request(overrides), BOOKED_AT, SETTINGS);
  const paid = recordSessionPayment(
    {
      bookingId: booking.id,
      amount: booking.totalCost,
      method: "card",
      transactionId: `charge_${booking.id}`,
      details: { brand: "mastercard", last4: "5555" },
    },
    paidAt,
    0,
  );
  if (!paid.ok || paid.recorded !== "now") throw new Error("not paid");
  return { booking: paid.booking, receipt: paid.receipt };
}

describe("a charge", () => {
  it("gets the next receipt number of its year, and its e-mail carries the PDF with the figures", () => {
    const before = highest("RECEIPT", 2026);
    const booking = paidBooking(customer);
    const [payment] = paymentsOf(booking.id);
    if (!payment) throw new Error("no payment");
    const receipt = receiptOfPayment(db, payment.id);
    expect(receipt).toMatchObject({ kind: "RECEIPT", year: 2026, number: before + 1 });
    expect(receipt?.numberText).toBe(`2026-${String(before + 1).padStart(6, "0")}`);

    const [email] = outboxFor(booking.id, "payment-received");
    const attached = pdfOf(email?.attachments);
    expect(email?.attachments?.[0]?.filename).toBe(`receipt-${receipt?.numberText}.pdf`);
    // The e-mail carries the same document the download serves.
    expect(attached.equals(receiptPdf(receipt?.details ?? ({} as never)))).toBe(true);
    const text = pdfWords(attached);
    expect(text).toContain(`Receipt ${receipt?.numberText}`);
    expect(text).toContain("ATL Creator Studio");
    expect(text).toContain("675 Ponce de Leon Ave NE");
    expect(text).toContain("Cam Celler");
    expect(text).toContain(`2 hours × ${formatDollars(booking.hourlyRate)}`);
    expect(text).toContain(`Amount paid ${formatDollars(booking.totalCost)}`);
    expect(text).toMatch(/Visa .{1,6}4242/);
    expect(text).toContain("Payment date: December 1, 2026, 9:01 AM");
  });

  it("prints the same bytes every time: the creation date is the issue time", () => {
    const { receipt } = payAt(BOOKED_AT + MINUTE);
    const details = receiptOfPayment(db, receipt.paymentId)?.details;
    if (!details) throw new Error("no receipt");
    expect(receiptPdf(details).equals(receiptPdf(details))).toBe(true);
    expect(receiptPdf(details).toString("latin1")).toContain("(D:20261201140100Z");
  });
});

describe("a refund", () => {
  it("gets a credit note numbered apart from receipts, naming the receipt it refunds, on the cancellation e-mail", async () => {
    const booking = paidBooking(customer);
    const charge = paymentsOf(booking.id).find((p) => p.amount > 0);
    const receipt = charge && receiptOfPayment(db, charge.id);
    const receiptsBefore = highest("RECEIPT", 2026);
    const notesBefore = highest("CREDIT_NOTE", 2026);

    await cancelOwnBooking(
      { bookingId: booking.id, userId: customer.id },
      BOOKED_AT + 2 * MINUTE,
      refundingProvider(),
    );
    const refund = paymentsOf(booking.id).find((p) => p.amount < 0);
    if (!refund) throw new Error("no refund");
    const note = receiptOfPayment(db, refund.id);
    expect(note).toMatchObject({ kind: "CREDIT_NOTE", year: 2026, number: notesBefore + 1 });
    expect(note?.numberText).toMatch(/^CN-2026-\d{6}$/);
    // Receipts' numbers did not move.
    expect(highest("RECEIPT", 2026)).toBe(receiptsBefore);

    const [email] = outboxFor(booking.id, "booking-cancelled");
    const types = email?.attachments?.map((a) => a.contentType);
    expect(types).toEqual(["text/calendar; charset=utf-8", "application/pdf"]);
    const text = pdfWords(pdfOf(email?.attachments));
    expect(text).toContain(`Credit note ${note?.numberText}`);
    expect(text).toContain(`Refunds receipt ${receipt?.numberText} for booking #${booking.id}`);
    expect(text).toContain(`Amount refunded ${formatDollars(-refund.amount)}`);
    expect(text).toMatch(/Refunded to Visa .{1,6}4242/);
  });

  it("a late cancellation's credit note says what was refunded and the fee kept", async () => {
    const booking = paidBooking(customer);
    // An hour before the session: half is kept (feePercent 50).
    await cancelOwnBooking(
      { bookingId: booking.id, userId: customer.id },
      booking.startsAt - 60 * MINUTE,
      refundingProvider(),
    );
    const refund = paymentsOf(booking.id).find((p) => p.amount < 0);
    if (!refund) throw new Error("no refund");
    const half = booking.totalCost / 2;
    expect(refund.amount).toBe(-half);
    const [email] = outboxFor(booking.id, "booking-cancelled");
    const text = pdfWords(pdfOf(email?.attachments));
    expect(text).toContain(`Amount refunded ${formatDollars(half)}`);
    expect(text).toContain(`Cancellation fee kept ${formatDollars(half)}`);
    expect(text).toContain(`Booking total ${formatDollars(booking.totalCost)}`);
  });

  it("a cancellation that refunds nothing sends no credit note", async () => {
    const booking = bookSession(customer, request(), BOOKED_AT, SETTINGS);
    await cancelOwnBooking(
      { bookingId: booking.id, userId: customer.id },
      BOOKED_AT + MINUTE,
      refundingProvider(),
    );
    const [email] = outboxFor(booking.id, "booking-cancelled");
    expect(email?.attachments?.map((a) => a.contentType)).not.toContain("application/pdf");
  });
});

describe("numbering", () => {
  it("numbers by the studio's year: 11:30 PM on Dec 31 in New York is 2026; 12:30 AM on Jan 1 starts 2027 at 1", () => {
    const lastOf2026 = payAt(studioInstant("2026-12-31", "23:30"), { recordingTime: "08:00" });
    expect(new Date(studioInstant("2026-12-31", "23:30")).getUTCFullYear()).toBe(2027);
    expect(lastOf2026.receipt.year).toBe(2026);
    expect(highest("RECEIPT", 2027)).toBe(0);
    const firstOf2027 = payAt(studioInstant("2027-01-01", "00:30"), { recordingTime: "12:00" });
    expect(firstOf2027.receipt).toMatchObject({ year: 2027, number: 1 });
    expect(receiptOfPayment(db, firstOf2027.receipt.paymentId)?.numberText).toBe("2027-000001");
  });

  it("a transaction that fails after its payment was inserted uses no number", () => {
    const before = highest("RECEIPT", 2026);
    const booking = bookSession(customer, request(), BOOKED_AT, SETTINGS);
    expect(() =>
      writeTransaction((tx) => {
        insertPayment(tx, {
          bookingId: booking.id,
          userId: customer.id,
          amount: booking.totalCost,
          paymentMethod: "card",
          paymentDate: BOOKED_AT + MINUTE,
          transactionId: `doomed_${booking.id}`,
        });
        expect(highest("RECEIPT", 2026)).toBe(before + 1);
        throw new Error("the booking changed meanwhile");
      }),
    ).toThrow("the booking changed meanwhile");
    expect(highest("RECEIPT", 2026)).toBe(before);
    expect(paymentsOf(booking.id)).toEqual([]);
    // The next payment takes the number the failed one did not keep.
    const { receipt } = payAt(BOOKED_AT + MINUTE, { recordingTime: "14:00" });
    expect(receipt.number).toBe(before + 1);
  });

  it("backfills payments recorded without a document, in payment order, and then finds none", () => {
    // Payments from before receipts existed: inserted bare, the later one first.
    const early = bookSession(customer, request(), BOOKED_AT, SETTINGS);
    const late = bookSession(customer, request({ recordingTime: "14:00" }), BOOKED_AT, SETTINGS);
    const bare = (bookingId: number, at: number) =>
      db
        .insert(payments)
        .values({
          bookingId,
          userId: customer.id,
          amount: 100,
          paymentMethod: "card",
          paymentDate: at,
          transactionId: `old_${bookingId}`,
        })
        .returning()
        .get();
    const second = bare(late.id, studioInstant("2025-06-02", "10:00"));
    const first = bare(early.id, studioInstant("2025-06-01", "10:00"));
    const issued = writeTransaction((tx) => issueMissingReceipts(tx, BOOKED_AT, 100));
    expect(issued).toBeGreaterThanOrEqual(2);
    expect(receiptOfPayment(db, first.id)?.numberText).toBe("2025-000001");
    expect(receiptOfPayment(db, second.id)?.numberText).toBe("2025-000002");
    expect(writeTransaction((tx) => issueMissingReceipts(tx, BOOKED_AT, 100))).toBe(0);
  });
});
