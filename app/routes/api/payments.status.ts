import { jsonError, describedMethodsOnly } from "#app/web/api.server";
import { takePaymentStatusCheck, tooManyPaymentChecksMessage } from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { verifyCheckout } from "#app/workflows/fulfil-payment.server";
import type { Route } from "./+types/payments.status";
import * as doc from "#app/web/api-doc";
import { z } from "#app/domain/zod";

/** An id the site never created, answered without asking the provider. */
export const UNKNOWN_PAYMENT_MESSAGE =
  "We could not find this payment. Please check your dashboard for your booking.";

/**
 * GET /api/payments/status?session_id=...: whether the payment behind a checkout reference
 * went through. With Stripe this asks Stripe when the webhook has not arrived yet, and
 * records the payment if it has been made (idempotently, like the webhook), but only for a
 * checkout the site itself opened (404 otherwise). Limited per client address
 * (PAYMENT_STATUS_LIMIT per 15 minutes; 429 with Retry-After past it). `pending` says the
 * payment is still being confirmed: the success page polls while it is true.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id")?.trim() ?? "";
  if (!sessionId || sessionId.length > 255) {
    return jsonError(400, "Missing payment information", { success: false });
  }
  const retryAfter = await takePaymentStatusCheck(context.get(clientAddressContext));
  if (retryAfter !== null) {
    return jsonError(
      429,
      tooManyPaymentChecksMessage(retryAfter),
      { success: false },
      {
        "Retry-After": String(retryAfter),
      },
    );
  }
  const verification = await verifyCheckout(sessionId);
  if (verification === null) return jsonError(404, UNKNOWN_PAYMENT_MESSAGE, { success: false });
  // `pending`: not paid yet, but it may still be; worth asking again (docs/product.md
  // "Booking-success page"). A client that reads only `success` sees false, as before.
  return Response.json(
    { success: verification.paid, pending: verification.pending },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const failed = { success: z.literal(false) };

export const openapi: doc.ApiPaths = {
  "/api/payments/status": {
    get: {
      summary: "Whether the payment behind a checkout reference went through",
      requestParams: { query: z.object({ session_id: z.string() }) },
      responses: {
        200: doc.answers(
          "Paid or not; `pending`: not paid yet, but it may still be (ask again)",
          z.strictObject({ success: z.boolean(), pending: z.boolean() }),
        ),
        400: doc.refused("Missing payment information", failed),
        404: doc.refused(UNKNOWN_PAYMENT_MESSAGE, failed),
        429: doc.tooMany("Too many payment checks", failed),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
