import type { Booking } from "#db/schema";
import { env } from "#app/env.server";
import { sandboxProvider } from "#app/integrations/payments/sandbox.server";
import { stripeProvider } from "#app/integrations/payments/stripe.server";

/**
 * How a booking gets paid, behind one interface chosen by PAYMENT_PROVIDER:
 * - `sandbox` takes the card on the app's own checkout page (test cards, works offline);
 * - `stripe` sends the customer to Stripe Checkout and learns the result from a signed webhook
 *   or, if that has not come yet, by asking Stripe.
 * Either way the result is recorded by `recordPayment`, which is idempotent.
 */
export type CheckoutVerification = { paid: boolean; bookingId: number | null };

/** A refund to make: part or all of one recorded payment, in whole dollars. */
export type RefundRequest = {
  bookingId: number;
  /** The payment's provider reference (a sandbox id, or a Stripe PaymentIntent id). */
  paymentTransactionId: string;
  amount: number;
};

/** The provider could not be reached or refused; `message` is safe to show the customer. */
export class PaymentServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PaymentServiceError";
  }
}

export interface PaymentProvider {
  readonly name: "sandbox" | "stripe";
  /** Where the customer pays: the app's card form, or a hosted page it redirects to. */
  readonly checkout: "card-form" | "hosted";
  /** Hosted providers: creates (or reuses) the hosted checkout and returns its URL. */
  createHostedCheckout(booking: Booking, appUrl: string): Promise<{ url: string }>;
  /** The success page's `session_id`: paid or not, fulfilling the booking if it was. */
  verifyCheckout(sessionId: string): Promise<CheckoutVerification>;
  /**
   * Refunds `amount` of a payment and returns the refund made. One refund per booking: when
   * one was already made (an attempt whose recording failed), that one is returned as it was,
   * amount included, and no second refund is made.
   */
  refund(request: RefundRequest): Promise<{ refundId: string; amount: number }>;
  /**
   * Before an unpaid booking is cancelled: closes any hosted checkout still open for it, so it
   * cannot be paid afterwards, and records a payment that completed meanwhile.
   */
  closeCheckout(booking: Booking): Promise<void>;
}

export function paymentProvider(): PaymentProvider {
  return env.PAYMENT_PROVIDER === "stripe" ? stripeProvider() : sandboxProvider;
}
