import { and, asc, eq, gt, isNull, max } from "drizzle-orm";
import { bookings, payments, receipts } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import { formatStudioInstant, sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import { formatDollars, quoteLines } from "#app/domain/pricing";
import {
  nextReceiptNumber,
  type ReceiptDetails,
  type ReceiptKind,
  receiptKindOf,
  receiptNumberText,
  receiptYear,
} from "#app/domain/receipts";
import { discountOf, hoursLabel, paymentMethodLabel } from "#app/domain/session-list";
import { STUDIO } from "#app/domain/studio";
import { getBookingServices } from "#app/models/booking.server";

/** docs/product.md "Receipts": issued in the payment's transaction, so no payment lacks its document and a rollback uses no number. */
export type Receipt = typeof receipts.$inferSelect;
type Reader = Pick<typeof db, "select">;

/** With `skipDuplicate`, an already recorded transaction id is ignored (a refund recorded twice). */
export function insertPayment(
  tx: Tx,
  values: typeof payments.$inferInsert,
  options: { skipDuplicate?: boolean; issuedAt?: number } = {},
): { paymentId: number; receipt: Receipt } | undefined {
  const insert = tx.insert(payments).values(values);
  const row = (options.skipDuplicate ? insert.onConflictDoNothing() : insert)
    .returning({ id: payments.id })
    .get();
  if (!row) return undefined;
  return { paymentId: row.id, receipt: issueReceipt(tx, row.id, options.issuedAt) };
}

export function issueReceipt(tx: Tx, paymentId: number, issuedAt = Date.now()): Receipt {
  const payment = tx.select().from(payments).where(eq(payments.id, paymentId)).get();
  if (!payment) throw new Error(`Payment ${paymentId} does not exist`);
  const kind = receiptKindOf(payment.amount);
  const year = receiptYear(payment.paymentDate);
  const highest = tx
    .select({ highest: max(receipts.number) })
    .from(receipts)
    .where(and(eq(receipts.kind, kind), eq(receipts.year, year)))
    .get();
  const number = nextReceiptNumber(highest?.highest);
  const details = receiptDetails(tx, payment, receiptNumberText(kind, year, number), issuedAt);
  return tx
    .insert(receipts)
    .values({ paymentId, kind, year, number, issuedAt, details })
    .returning()
    .get();
}

/** Oldest first (date, then id), so each year's numbers follow its payments. */
export function issueMissingReceipts(tx: Tx, issuedAt: number, limit: number): number {
  const missing = tx
    .select({ id: payments.id })
    .from(payments)
    .leftJoin(receipts, eq(receipts.paymentId, payments.id))
    .where(isNull(receipts.id))
    .orderBy(asc(payments.paymentDate), asc(payments.id))
    .limit(limit)
    .all();
  for (const payment of missing) issueReceipt(tx, payment.id, issuedAt);
  return missing.length;
}

type PaymentRow = typeof payments.$inferSelect;

function receiptDetails(
  tx: Tx,
  payment: PaymentRow,
  number: string,
  issuedAt: number,
): ReceiptDetails {
  const booking = tx.select().from(bookings).where(eq(bookings.id, payment.bookingId)).get();
  if (!booking) throw new Error(`Payment ${payment.id} names no booking`);
  const kind: ReceiptKind = receiptKindOf(payment.amount);
  const charge = kind === "CREDIT_NOTE" ? refundedCharge(tx, payment) : undefined;
  const methodOf = charge ?? payment;
  const hours = Number(booking.hoursNeeded);
  const lines = quoteLines({
    hours,
    hourlyRate: booking.hourlyRate,
    buysRetainer: booking.isRetainer,
    retainerHoursDrawn: booking.retainerHoursDrawn,
    services: getBookingServices(tx, booking.id).map((service) => ({
      id: service.serviceId,
      name: service.name,
      price: service.priceAtBooking,
    })),
    discountAmount: discountOf(booking),
    couponCode: booking.couponCode,
  });
  return {
    kind,
    number,
    issuedAt,
    studio: {
      name: STUDIO.name,
      street: STUDIO.street,
      locality: STUDIO.locality,
      email: STUDIO.email,
      phone: STUDIO.phone,
    },
    customer: {
      name: `${booking.firstName} ${booking.lastName}`,
      business: booking.businessName || null,
      email: booking.email,
    },
    booking: {
      id: booking.id,
      date: sessionDate(booking),
      time: sessionTimeRange(booking),
      hours: hoursLabel(booking.hoursNeeded),
      lines: lines.map((line) => ({
        label: line.label,
        // Plain ASCII minus: the PDF's built-in font has no U+2212.
        amount: line.amount < 0 ? `-${formatDollars(-line.amount)}` : formatDollars(line.amount),
      })),
      total: formatDollars(booking.totalCost),
      retainerHoursDrawn: booking.retainerHoursDrawn,
    },
    payment: {
      amount: formatDollars(Math.abs(payment.amount)),
      method: paymentMethodLabel(methodOf.paymentMethod, methodOf.paymentDetails ?? null),
      date: formatStudioInstant(payment.paymentDate, "MMMM d, yyyy, h:mm a"),
      feeKept: kind === "CREDIT_NOTE" ? feeKept(payment) : null,
    },
    refundOf:
      kind === "CREDIT_NOTE"
        ? {
            receiptNumber: charge ? (receiptOfPayment(tx, charge.id)?.numberText ?? null) : null,
            bookingId: booking.id,
          }
        : null,
  };
}

function feeKept(refund: PaymentRow): string | null {
  const fee = refund.paymentDetails?.fee;
  return typeof fee === "number" && fee > 0 ? formatDollars(fee) : null;
}

/** The one its details name, else the booking's latest. */
function refundedCharge(tx: Tx, refund: PaymentRow): PaymentRow | undefined {
  const of = refund.paymentDetails?.refundOf;
  const named =
    typeof of === "string"
      ? tx.select().from(payments).where(eq(payments.transactionId, of)).get()
      : undefined;
  if (named && named.amount > 0) return named;
  return tx
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, refund.bookingId), gt(payments.amount, 0)))
    .orderBy(asc(payments.paymentDate), asc(payments.id))
    .get();
}

export function receiptOfPayment(reader: Reader, paymentId: number) {
  const row = reader.select().from(receipts).where(eq(receipts.paymentId, paymentId)).get();
  return row ? withNumberText(row) : undefined;
}

function withNumberText(row: Receipt) {
  return {
    ...row,
    details: row.details as ReceiptDetails,
    numberText: receiptNumberText(row.kind, row.year, row.number),
  };
}

export function getBookingReceipt(bookingId: number, paymentId: number) {
  const row = db
    .select({ receipt: receipts })
    .from(receipts)
    .innerJoin(payments, eq(payments.id, receipts.paymentId))
    .where(and(eq(receipts.paymentId, paymentId), eq(payments.bookingId, bookingId)))
    .get();
  return row ? withNumberText(row.receipt) : undefined;
}

export function listBookingReceipts(bookingId: number) {
  return db
    .select({
      bookingId: payments.bookingId,
      paymentId: payments.id,
      amount: payments.amount,
      paymentDate: payments.paymentDate,
      kind: receipts.kind,
      year: receipts.year,
      number: receipts.number,
    })
    .from(payments)
    .innerJoin(receipts, eq(receipts.paymentId, payments.id))
    .where(eq(payments.bookingId, bookingId))
    .orderBy(asc(payments.paymentDate), asc(payments.id))
    .all()
    .map((row) => ({ ...row, numberText: receiptNumberText(row.kind, row.year, row.number) }));
}

export type BookingPaymentRow = {
  id: number;
  bookingId: number;
  amount: number;
  paymentDate: number;
  receiptId: number | null;
};

/** One query for the whole list. */
export function bookingPaymentsOf(userId: number): Map<number, BookingPaymentRow[]> {
  const rows = db
    .select({
      id: payments.id,
      bookingId: payments.bookingId,
      amount: payments.amount,
      paymentDate: payments.paymentDate,
      receiptId: receipts.id,
    })
    .from(payments)
    .innerJoin(bookings, eq(bookings.id, payments.bookingId))
    .leftJoin(receipts, eq(receipts.paymentId, payments.id))
    .where(eq(bookings.userId, userId))
    .orderBy(asc(payments.paymentDate), asc(payments.id))
    .all();
  const byBooking = new Map<number, BookingPaymentRow[]>();
  for (const row of rows) {
    const list = byBooking.get(row.bookingId) ?? [];
    list.push(row);
    byBooking.set(row.bookingId, list);
  }
  return byBooking;
}
