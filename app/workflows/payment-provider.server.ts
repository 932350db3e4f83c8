import { logError } from "#app/log.server";
import { PaymentProviderError } from "#app/integrations/payments/types";

/**
 * What the workflows tell a customer when the payment provider (app/adapters.server.ts picks
 * it) fails.
 */

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
