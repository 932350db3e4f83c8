import { randomUUID } from "node:crypto";
import type { Booking } from "#db/schema";
import {
  CARD_MESSAGES,
  type CardInput,
  cardBrand,
  passesLuhn,
  SANDBOX_CARDS,
} from "#app/domain/card";
import { HOLD_EXPIRED_REASON, isPayable } from "#app/models/booking.server";
import { getPaymentByTransaction, recordPayment } from "#app/models/payment.server";
import { env } from "#app/env.server";
import type { PaymentProvider } from "#app/integrations/payments/provider.server";

/**
 * The offline provider: the app's own checkout page takes the card and this decides, like a
 * card network would, from the test cards of product-decisions "Payment". The full number
 * and CVV go no further than this function.
 */
export const SANDBOX_TRANSACTION_PREFIX = "sandbox_";

export type ChargeResult =
  | { ok: true; transactionId: string; booking: Booking }
  | { ok: false; message: string };

export function chargeSandboxCard(booking: Booking, card: CardInput, now: number): ChargeResult {
  if (!isPayable(booking, now)) return { ok: false, message: notPayableMessage(booking, now) };
  if (!passesLuhn(card.cardNumber)) return { ok: false, message: CARD_MESSAGES.invalidNumber };
  if (card.cardNumber === SANDBOX_CARDS.declined) {
    return { ok: false, message: CARD_MESSAGES.declined };
  }
  const transactionId = `${SANDBOX_TRANSACTION_PREFIX}${randomUUID()}`;
  const result = recordPayment(
    {
      bookingId: booking.id,
      amount: booking.totalCost,
      method: "card",
      transactionId,
      details: { brand: cardBrand(card.cardNumber), last4: card.cardNumber.slice(-4) },
    },
    now,
    env.BUFFER_MINUTES,
  );
  // Two tabs paying at once: the second finds the booking already paid.
  if (result.outcome !== "paid") return { ok: false, message: ALREADY_PAID_MESSAGE };
  return { ok: true, transactionId, booking: result.booking };
}

export const ALREADY_PAID_MESSAGE = "This booking has already been paid.";
export const HOLD_EXPIRED_MESSAGE =
  "The hold on this time slot has run out, so it was released. Please book again.";

export function notPayableMessage(booking: Booking, now: number): string {
  if (booking.status === "PENDING_PAYMENT" && (booking.holdExpiresAt ?? 0) <= now) {
    return HOLD_EXPIRED_MESSAGE;
  }
  if (booking.status === "CANCELLED") {
    // The list cancels a run-out hold before the customer opens it: still say why.
    return booking.cancellationReason === HOLD_EXPIRED_REASON
      ? HOLD_EXPIRED_MESSAGE
      : "This booking was cancelled.";
  }
  if (booking.totalCost === 0) return "This booking is free: there is nothing to pay.";
  return ALREADY_PAID_MESSAGE;
}

export const sandboxProvider: PaymentProvider = {
  name: "sandbox",
  checkout: "card-form",
  async createHostedCheckout() {
    throw new Error("The sandbox takes cards on the app's own checkout page");
  },
  // The sandbox moves no money: the refund's reference is fixed per booking, so a repeated
  // request names the same refund (and the unique transaction id keeps one row).
  async refund({ bookingId, amount }) {
    return { refundId: `${SANDBOX_TRANSACTION_PREFIX}refund_${bookingId}`, amount };
  },
  // Its checkout is the app's own form: nothing stays open elsewhere.
  async closeCheckout() {},
  async verifyCheckout(sessionId) {
    if (!sessionId.startsWith(SANDBOX_TRANSACTION_PREFIX)) return { paid: false, bookingId: null };
    const payment = getPaymentByTransaction(sessionId);
    return payment && payment.amount > 0
      ? { paid: true, bookingId: payment.bookingId }
      : { paid: false, bookingId: null };
  },
};
