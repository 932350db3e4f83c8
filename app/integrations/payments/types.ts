import type { CardInput } from "#app/domain/card";

/**
 * The payment provider as the workflows see it: calls to the outside world and nothing else.
 * A provider is built from its arguments (no settings read here, no database): it answers, or
 * throws one of the errors below, and the workflow that called it decides what to record, log
 * and tell the customer. Two kinds:
 * - `card-form` (the sandbox): the app's own checkout page takes the card and the provider
 *   decides, like a card network would;
 * - `hosted` (Stripe): the customer pays on the provider's page; the workflow learns the
 *   result from a signed webhook or by asking for the checkout.
 */

/** A refund to make: part or all of one recorded payment, in whole dollars. */
export type RefundRequest = {
  bookingId: number;
  /** The payment's provider reference (a sandbox id, or a Stripe PaymentIntent id). */
  paymentTransactionId: string;
  amount: number;
  /** Derived from the booking, so the same refund asked for twice is made once. */
  idempotencyKey: string;
};

/** A refund the provider made (or had made before), in whole dollars. */
export type MadeRefund = { refundId: string; amount: number };

/** A hosted checkout as the provider sees it now. */
export type CheckoutSession = {
  id: string;
  status: "open" | "complete" | "expired";
  /** Where the customer pays; null once it is complete or expired. */
  url: string | null;
  /** The money was taken (not pending, not unpaid). */
  paid: boolean;
  /**
   * The order it was opened for and the sessions it pays, as its metadata says; null when it
   * says nothing usable. `id` is null on a checkout opened before orders (one booking's).
   */
  order: { id: number | null; bookingIds: number[] } | null;
  /** What was charged, in the currency's smallest unit (cents). */
  amountTotal: number | null;
  currency: string | null;
  /** The payment's reference (Stripe: the PaymentIntent id), once paid. */
  paymentId: string | null;
  /** Brand and last 4 digits only; the provider gives no more and we would not keep it. */
  card: { brand: string; last4: string };
};

/** One line of a checkout: one session, its price from the booking row. */
export type CheckoutLine = { bookingId: number; amount: number; name: string; description: string };

/** A hosted checkout paying an order's unpaid sessions together, one line each. */
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

/** A genuine (signature-checked) provider event. */
export type PaymentEvent = {
  id: string;
  type: string;
  /** The checkout the event is about, when it is about one. */
  checkoutId: string | null;
};

/** The card-form provider's answer: a charge reference, or why the card was refused. */
export type CardCharge =
  | { ok: true; transactionId: string; brand: string; last4: string }
  | { ok: false; message: string };

/**
 * The provider could not be reached, timed out, or refused the request. `retryable`: the same
 * request may succeed later (network, 5xx, rate limit); false when it never will (an unknown
 * checkout, an invalid request).
 */
export class PaymentProviderError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "PaymentProviderError";
    this.retryable = options.retryable;
  }
}

/** The webhook request is not a genuine event (missing or wrong signature): a 400. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

type ProviderBase = {
  /**
   * Refunds `amount` of a payment and returns the refund made. One refund per booking: when
   * one was already made (an attempt whose recording failed), that one is returned as it was,
   * amount included, and no second refund is made.
   */
  refund(request: RefundRequest): Promise<MadeRefund>;
  /**
   * The refund already made for this booking from a payment, if any; asks, never refunds. Only
   * a refund the site made for this booking counts (one charge can pay every session of an
   * order; a refund made by hand at the provider names no booking).
   */
  findRefund(paymentTransactionId: string, bookingId: number): Promise<MadeRefund | null>;
  /**
   * Closes a hosted checkout so it cannot be paid any more, and returns it as it ended: a
   * `complete` one was paid meanwhile (the caller records that payment).
   */
  closeCheckout(checkoutId: string): Promise<CheckoutSession>;
  /** Whether a success page's reference can be one of this provider's checkouts. */
  isCheckoutReference(reference: string): boolean;
};

export type CardFormProvider = ProviderBase & {
  readonly name: "sandbox";
  readonly checkout: "card-form";
  /** Decides on a card; the full number and CVV go no further than this call. */
  chargeCard(card: CardInput): CardCharge;
};

export type HostedCheckoutProvider = ProviderBase & {
  readonly name: "stripe";
  readonly checkout: "hosted";
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  retrieveCheckout(checkoutId: string): Promise<CheckoutSession>;
  /** Checks the signature over the raw body; throws WebhookSignatureError when it fails. */
  verifyWebhook(rawBody: string, signature: string | null): PaymentEvent;
};

export type PaymentProvider = CardFormProvider | HostedCheckoutProvider;
