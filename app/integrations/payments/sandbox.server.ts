import { randomUUID } from "node:crypto";
import { CARD_MESSAGES, cardBrand, passesLuhn, SANDBOX_CARDS } from "#app/domain/card";
import { type CardFormProvider, PaymentProviderError } from "#app/integrations/payments/types";

/**
 * The offline provider: the app's own checkout page takes the card and this decides, like a
 * card network would, from the test cards of docs/product.md "Payment". It moves no money
 * and keeps nothing, so it works without a network.
 */
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
  // The refund's reference is fixed per booking, so a repeated request names the same refund
  // (and the unique transaction id keeps one row).
  async refund({ bookingId, amount }) {
    return { refundId: `${SANDBOX_TRANSACTION_PREFIX}refund_${bookingId}`, amount };
  },
  // No money moved and nothing was kept: there is never an earlier refund to find.
  async findRefund() {
    return null;
  },
  // Its checkout is the app's own form: nothing is ever open elsewhere.
  async closeCheckout(checkoutId) {
    throw new PaymentProviderError(`The sandbox opened no hosted checkout ${checkoutId}`, {
      retryable: false,
    });
  },
  // The success page's reference is the payment's own transaction id.
  isCheckoutReference: (reference) => reference.startsWith(SANDBOX_TRANSACTION_PREFIX),
};
