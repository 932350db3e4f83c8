import { randomUUID } from "node:crypto";
import { CARD_MESSAGES, cardBrand, passesLuhn, SANDBOX_CARDS } from "#app/domain/card";
import { type CardFormProvider, PaymentProviderError } from "#app/integrations/payments/types";

/** Decides like a card network would, from the test cards of docs/product.md "Payment". */
export const SANDBOX_TRANSACTION_PREFIX = "sandbox_";

export const sandboxProvider: CardFormProvider = {
  name: "sandbox",
  checkout: "card-form",
  chargeCard(card) {
    if (!passesLuhn(card.cardNumber)) return { ok: false, message: CARD_MESSAGES.invalidNumber };
    if (card.cardNumber === SANDBOX_CARDS.declined) {
      return { ok: false, message: CARD_MESSAGES.declined };
    }
    return {
      ok: true,
      transactionId: `${SANDBOX_TRANSACTION_PREFIX}${randomUUID()}`,
      brand: cardBrand(card.cardNumber),
      last4: card.cardNumber.slice(-4),
    };
  },
  // Fixed per booking, so a repeated request names the same refund (and keeps one row).
  async refund({ bookingId, amount }) {
    return { refundId: `${SANDBOX_TRANSACTION_PREFIX}refund_${bookingId}`, amount };
  },
  async findRefund() {
    return null;
  },
  async closeCheckout(checkoutId) {
    throw new PaymentProviderError(`The sandbox opened no hosted checkout ${checkoutId}`, {
      retryable: false,
    });
  },
  isCheckoutReference: (reference) => reference.startsWith(SANDBOX_TRANSACTION_PREFIX),
};
