import type { Booking } from "../../../db/schema";
import { env } from "../env.server";
import { sandboxProvider } from "./sandbox.server";
import { stripeProvider } from "./stripe.server";

/**
 * How a booking gets paid, behind one interface chosen by PAYMENT_PROVIDER:
 * - `sandbox` takes the card on the app's own checkout page (test cards, works offline);
 * - `stripe` sends the customer to Stripe Checkout and learns the result from a signed webhook
 *   or, if that has not come yet, by asking Stripe.
 * Either way the result is recorded by `recordPayment`, which is idempotent.
 */
export type CheckoutVerification = { paid: boolean; bookingId: number | null };

export interface PaymentProvider {
  readonly name: "sandbox" | "stripe";
  /** Where the customer pays: the app's card form, or a hosted page it redirects to. */
  readonly checkout: "card-form" | "hosted";
  /** Hosted providers: creates (or reuses) the hosted checkout and returns its URL. */
  createHostedCheckout(booking: Booking, appUrl: string): Promise<{ url: string }>;
  /** The success page's `session_id`: paid or not, fulfilling the booking if it was. */
  verifyCheckout(sessionId: string): Promise<CheckoutVerification>;
}

export function paymentProvider(): PaymentProvider {
  return env.PAYMENT_PROVIDER === "stripe" ? stripeProvider() : sandboxProvider;
}
