import { allowOf, jsonError, methodNotAllowed, methodRefusal } from "#app/web/api.server";
import { env } from "#app/env.server";
import { handlePaymentWebhook, WebhookSignatureError } from "#app/workflows/fulfil-payment.server";
import type { Route } from "./+types/payments.webhook";
import * as doc from "#app/web/api-doc";
import { z } from "#app/domain/zod";

/** Stripe events are a few kilobytes; anything far larger is not one. */
const MAX_BODY_BYTES = 256 * 1024;

/** Without Stripe the endpoint does not exist, whatever the method (a 404 before any 405). */
const withoutStripe = () =>
  env.PAYMENT_PROVIDER === "stripe" ? null : jsonError(404, "Not found");

export function loader() {
  return withoutStripe() ?? methodNotAllowed(allowOf(openapi));
}

/**
 * POST /api/payments/webhook: Stripe's signed events. Server to server, no cookie and no
 * Origin, so the cross-site check lets it through and the signature is the authentication.
 */
export async function action({ request }: Route.ActionArgs) {
  const refused = withoutStripe() ?? methodRefusal(request.method, allowOf(openapi));
  if (refused) return refused;
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES) {
    return jsonError(413, "Payload too large");
  }
  // The signature covers the exact bytes Stripe sent: read the raw body before anything else.
  const rawBody = await request.text();
  try {
    const outcome = await handlePaymentWebhook(rawBody, request.headers.get("Stripe-Signature"));
    if (outcome === "retry") {
      // Not recorded; a non-2xx answer makes Stripe send the event again later.
      return jsonError(503, "The payment could not be confirmed right now; retry later");
    }
    return Response.json({ received: true });
  } catch (error) {
    if (error instanceof WebhookSignatureError) return jsonError(400, error.message);
    throw error;
  }
}

export const openapi: doc.ApiPaths = {
  "/api/payments/webhook": {
    post: {
      summary: "Stripe's signed events (server to server; 404 when Stripe is not the provider)",
      requestBody: { content: { "application/json": { schema: { type: "object" } } } },
      responses: {
        200: doc.answers(
          "Recorded (or already recorded)",
          z.strictObject({ received: z.literal(true) }),
        ),
        400: doc.refused("The signature does not match"),
        404: doc.refused("Not found: the site does not take payments through Stripe"),
        413: doc.refused("Payload too large"),
        503: doc.refused("The payment could not be confirmed right now; Stripe retries later"),
      },
    },
  },
};
