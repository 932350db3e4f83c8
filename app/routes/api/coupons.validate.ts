import { COUPON_MESSAGES, normalizeCouponCode } from "#app/domain/coupons";
import { checkCoupon, toCouponSummary } from "#app/models/coupon.server";
import { jsonError, describedMethodsOnly } from "#app/web/api.server";
import { takeCouponLookup, tooManyCouponLookupsMessage } from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { getUser } from "#app/web/user-context.server";
import type { Route } from "./+types/coupons.validate";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { z } from "#app/domain/zod";

/**
 * GET /api/coupons/validate/{code}: { isValid, message, coupon: {code, value, type} | null }.
 * Open to visitors, as the booking form is, and limited per client address and, when signed in,
 * per account (COUPON_LOOKUP_LIMIT per 15 minutes; 429 with Retry-After past it). A coupon
 * that cannot be used is still a 200 with one message whatever the reason (docs/product.md
 * "Coupons").
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await getUser(request, context);
  const code = params.code ?? "";
  if (normalizeCouponCode(code) === "") return jsonError(400, COUPON_MESSAGES.required);
  const retryAfter = await takeCouponLookup(context.get(clientAddressContext), user?.id ?? null);
  if (retryAfter !== null) {
    return jsonError(429, tooManyCouponLookupsMessage(retryAfter), undefined, {
      "Retry-After": String(retryAfter),
    });
  }
  const check = checkCoupon(code, Date.now());
  return Response.json({
    isValid: check.isValid,
    message: check.message,
    coupon: check.isValid ? toCouponSummary(check.coupon) : null,
  });
}

export const openapi: doc.ApiPaths = {
  "/api/coupons/validate/{code}": {
    get: {
      summary: "Whether a coupon code can be used now; open to visitors",
      requestParams: { path: z.object({ code: z.string() }) },
      responses: {
        200: doc.answers(
          "The check; a code that cannot be used is still a 200",
          shape.couponCheckJson,
        ),
        400: doc.refused(COUPON_MESSAGES.required),
        429: doc.tooMany("Too many coupon lookups"),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
