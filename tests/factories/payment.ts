import { payments } from "#db/schema";
import { issueReceipt } from "#app/models/receipt.server";
import type { FactoryDb } from "#tests/factories/database";

type NewPayment = typeof payments.$inferInsert;
type Payment = typeof payments.$inferSelect;

export type PaymentInput = Partial<Omit<NewPayment, "bookingId" | "userId">> & {
  /** The booking paid for; its owner pays, and its total is the default amount. */
  booking: { id: number; userId: number; totalCost?: number };
};

/**
 * A payment (or, with a negative amount, a refund) of a booking. The insert triggers stamp the
 * customer type and add it to the sales roll-up, as for the app's own payments; the returned
 * row is the row as inserted, before them. Its receipt (or credit note) is issued in the same
 * transaction, as the app does for every payment (docs/product.md "Receipts").
 */
export function createPayment(db: FactoryDb, input: PaymentInput): Payment {
  const { booking, ...columns } = input;
  const amount = columns.amount ?? booking.totalCost ?? 400;
  return db.transaction(
    (tx) => {
      const payment = tx
        .insert(payments)
        .values({
          paymentMethod: amount < 0 ? "refund" : "card",
          ...columns,
          amount,
          bookingId: booking.id,
          userId: booking.userId,
        })
        .returning()
        .get();
      issueReceipt(tx, payment.id);
      return payment;
    },
    // IMMEDIATE as the app's writes: beside a running server, the number is read under the lock.
    { behavior: "immediate" },
  );
}

/** What the sandbox records for a card: brand and last four digits, never the number. */
export const CARD_DETAILS = { brand: "visa", last4: "4242" };
