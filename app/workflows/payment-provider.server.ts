import { env } from "#app/env.server";
import { logError } from "#app/log.server";
import { sandboxProvider } from "#app/integrations/payments/sandbox.server";
import { stripeProvider } from "#app/integrations/payments/stripe.server";
import {
  type HostedCheckoutProvider,
  type PaymentProvider,
  PaymentProviderError,
} from "#app/integrations/payments/types";

/**
 * The payment provider chosen by PAYMENT_PROVIDER (`sandbox`: the app's own card form, test
 * cards, offline; `stripe`: Stripe Checkout), and what the workflows tell a customer when it
 * fails. Read at each call, so a test may switch the setting.
 */
let sharedStripe: { key: string; provider: HostedCheckoutProvider } | undefined;

export function paymentProvider(): PaymentProvider {
  if (env.PAYMENT_PROVIDER !== "stripe") return sandboxProvider;
  const key = env.STRIPE_SECRET_KEY;
  if (!key) throw new Error("STRIPE_SECRET_KEY is not set");
  // One client per process: it keeps its connections alive between calls.
  if (sharedStripe?.key !== key) {
    sharedStripe = {
      key,
      provider: stripeProvider({
        secretKey: key,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET,
        apiUrl: env.STRIPE_API_URL,
      }),
    };
  }
  return sharedStripe.provider;
}

/** The payment service failed; `message` is safe to show the customer or staff. */
export class PaymentServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PaymentServiceError";
  }
}

/** Cancelling needs the provider (to refund, or to close an open checkout) and it failed. */
export const CANCEL_UNAVAILABLE_MESSAGE =
  "We could not reach the payment service, so your booking is unchanged. Please try again in a moment.";

export const PAYMENT_SERVICE_UNAVAILABLE_MESSAGE =
  "We could not reach the payment service. Your time slot is still held; please try again in a moment.";

/**
 * Runs one provider call for a workflow: a provider failure is logged with `context` (never
 * a stack, never a key) and becomes a PaymentServiceError carrying `message`. Anything else
 * is a bug and is thrown as it is.
 */
export async function callProvider<T>(
  context: string,
  message: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    logError(context, error);
    throw new PaymentServiceError(message);
  }
}
