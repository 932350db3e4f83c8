import { and, asc, eq, gt, or, sql } from "drizzle-orm";
import { type Booking, bookings, payments, processedPaymentEvents } from "#db/schema";
import { db } from "#app/db.server";
import { isPaymentOfCharge } from "#app/domain/series-sessions";
import type { Tx } from "#app/models/booking.server";

/** The rows a payment leaves (workflows/apply-payment.server.ts decides and records one). */

export function paymentRecorded(tx: Tx, transactionId: string): boolean {
  return (
    tx
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.transactionId, transactionId))
      .get() !== undefined
  );
}

/** Undefined when its status changed since it was read. */
export function markBookingPaid(tx: Tx, booking: Pick<Booking, "id" | "status">) {
  return tx
    .update(bookings)
    .set({ status: "PENDING", holdExpiresAt: null, cancellationReason: null, cancelledAt: null })
    .where(and(eq(bookings.id, booking.id), eq(bookings.status, booking.status)))
    .returning()
    .get();
}

/** A row's reference is the charge's, or the charge's with its booking after it. */
export function paymentsOfCharge(tx: Tx, chargeId: string) {
  return tx
    .select({ payment: payments, booking: bookings })
    .from(payments)
    .innerJoin(bookings, eq(bookings.id, payments.bookingId))
    .where(
      and(
        gt(payments.amount, 0),
        or(
          eq(payments.transactionId, chargeId),
          sql`substr(${payments.transactionId}, 1, ${chargeId.length + 1}) = ${`${chargeId}:`}`,
        ),
      ),
    )
    .all()
    .filter(({ payment }) => isPaymentOfCharge(payment.transactionId ?? "", chargeId));
}

export function recordEventSeen(
  tx: Tx,
  event: { id: string; provider: string; type: string },
  bookingId: number | null,
  now: number,
) {
  tx.insert(processedPaymentEvents)
    .values({ ...event, bookingId, processedAt: now })
    .onConflictDoNothing()
    .run();
}

export function eventSeen(reader: Pick<Tx, "select">, eventId: string): boolean {
  return (
    reader
      .select({ id: processedPaymentEvents.id })
      .from(processedPaymentEvents)
      .where(eq(processedPaymentEvents.id, eventId))
      .get() !== undefined
  );
}

/** The payment a provider's checkout reference points at (the success page's session_id). */
export function getPaymentByTransaction(transactionId: string) {
  return db.select().from(payments).where(eq(payments.transactionId, transactionId)).get();
}

export function listBookingPayments(bookingId: number) {
  return db
    .select({
      id: payments.id,
      amount: payments.amount,
      paymentMethod: payments.paymentMethod,
      paymentDate: payments.paymentDate,
      paymentDetails: payments.paymentDetails,
    })
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .orderBy(asc(payments.paymentDate), asc(payments.id))
    .all();
}

export function hasPayment(bookingId: number): boolean {
  const row = db
    .select({ total: sql<number>`coalesce(sum(${payments.amount}), 0)` })
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .get();
  return (row?.total ?? 0) > 0;
}
