import { COUPON_MESSAGES, normalizeCouponCode } from "#app/domain/coupons";
import { checkCoupon, toCouponSummary } from "#app/models/coupon.server";
import { jsonError, methodNotAllowed } from "#app/web/api.server";
import { requireApiUser } from "#app/web/user-context.server";
import type { Route } from "./+types/coupons.validate";

/**
 * GET /api/coupons/validate/{code}: { isValid, message, coupon: {code, value, type} | null }.
 * Signed-in users only, so codes cannot be probed anonymously. A coupon that cannot be used is
 * still a 200: the client shows the server's message (docs/product.md "Messages",
 * 'Invalid Coupon').
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireApiUser(request, context);
  const code = params.code ?? "";
  if (normalizeCouponCode(code) === "") return jsonError(400, COUPON_MESSAGES.required);
  const check = checkCoupon(code, Date.now());
  return Response.json({
    isValid: check.isValid,
    message: check.message,
    coupon: check.isValid ? toCouponSummary(check.coupon) : null,
  });
}

export function action() {
  return methodNotAllowed("GET");
}
