import { jsonError, methodNotAllowed } from "#app/web/api.server";
import { verifyCheckout } from "#app/workflows/fulfil-payment.server";
import type { Route } from "./+types/payments.status";

/**
 * GET /api/payments/status?session_id=...: whether the payment behind a checkout reference
 * went through. With Stripe this asks Stripe when the webhook has not arrived yet, and
 * records the payment if it has been made (idempotently, like the webhook).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id")?.trim() ?? "";
  if (!sessionId || sessionId.length > 255) {
    return jsonError(400, "Missing payment information", { success: false });
  }
  const { paid } = await verifyCheckout(sessionId);
  return Response.json({ success: paid }, { headers: { "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed("GET");
}
