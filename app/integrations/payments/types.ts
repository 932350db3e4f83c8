import type { CardInput } from "#app/domain/card";

/**
 * The payment provider as the workflows see it: built from its arguments (no settings, no
 * database), it answers or throws, and the calling workflow decides what to record. `card-form`
 * (the sandbox) takes the card on our page; `hosted` (Stripe) on its own, the result arriving by
 * webhook or by asking.
 */

export type RefundRequest = {
  bookingId: number;
  /** The payment's provider reference (a sandbox id, or a Stripe PaymentIntent id). */
  paymentTransactionId: string;
  amount: number;
  /** Derived from the booking, so the same refund asked for twice is made once. */
  idempotencyKey: string;
};

export type MadeRefund = { refundId: string; amount: number };

export type CheckoutSession = {
  id: string;
  status: "open" | "complete" | "expired";
  /** Where the customer pays; null once it is complete or expired. */
  url: string | null;
  paid: boolean;
  /** As its metadata says; `id` is null on a checkout opened before orders. */
  order: { id: number | null; bookingIds: number[] } | null;
  /** In cents. */
  amountTotal: number | null;
  currency: string | null;
  /** The payment's reference (Stripe: the PaymentIntent id), once paid. */
  paymentId: string | null;
  /** Brand and last 4 digits: the provider gives no more and we would not keep it. */
  card: { brand: string; last4: string };
};

export type CheckoutLine = { bookingId: number; amount: number; name: string; description: string };

export type CheckoutRequest = {
  orderId: number;
  lines: CheckoutLine[];
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
  /** Epoch ms; the checkout never outlives the sessions' holds. */
  expiresAt: number;
  /** Derived from the order and its plan, so a double submit gets the same checkout. */
  idempotencyKey: string;
};

export type PaymentEvent = {
  id: string;
  type: string;
  checkoutId: string | null;
  /** The booking its metadata names: the site names one on every refund it makes. */
  refund: { id: string; paymentId: string; amount: number; bookingId: number | null } | null;
};

export type CardCharge =
  | { ok: true; transactionId: string; brand: string; last4: string }
  | { ok: false; message: string };

/** `retryable`: the same request may succeed later (network, 5xx, rate limit). */
export class PaymentProviderError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "PaymentProviderError";
    this.retryable = options.retryable;
  }
}

/** Not a genuine event (missing or wrong signature): a 400. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

type ProviderBase = {
  /** One refund per booking: one already made is returned as it was, and no second one made. */
  refund(request: RefundRequest): Promise<MadeRefund>;
  /**
   * Asks, never refunds. Only a refund the site made for this booking counts: one charge can pay
   * an order's every session, and a refund made by hand names no booking.
   */
  findRefund(paymentTransactionId: string, bookingId: number): Promise<MadeRefund | null>;
  /** Returns it as it ended: a `complete` one was paid meanwhile and must be recorded. */
  closeCheckout(checkoutId: string): Promise<CheckoutSession>;
  isCheckoutReference(reference: string): boolean;
};

export type CardFormProvider = ProviderBase & {
  readonly name: "sandbox";
  readonly checkout: "card-form";
  /** The full number and CVV go no further than this call. */
  chargeCard(card: CardInput): CardCharge;
};

export type HostedCheckoutProvider = ProviderBase & {
  readonly name: "stripe";
  readonly checkout: "hosted";
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * Closes every checkout still open that was opened for this order with this expiry (a create
   * whose answer never came); returns them as they ended, a `complete` one to be recorded.
   */
  closeCheckoutsOf(plan: { orderId: number; expiresAt: number }): Promise<CheckoutSession[]>;
  retrieveCheckout(checkoutId: string): Promise<CheckoutSession>;
  verifyWebhook(rawBody: string, signature: string | null): PaymentEvent;
};

export type PaymentProvider = CardFormProvider | HostedCheckoutProvider;
