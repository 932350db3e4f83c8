import { parseId } from "#app/domain/ids";
import { setCouponActive } from "#app/models/coupon.server";
import { jsonError } from "#app/web/api.server";
import type { Route } from "./+types/coupons.deactivate";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { toCouponJson } from "#app/routes/api/json/coupon";

/** PUT /api/admin/coupons/{id}/deactivate with {}: the updated coupon. */
export async function action({ params }: Route.ActionArgs) {
  const id = parseId(params.id);
  const coupon = id === null ? undefined : setCouponActive(id, false);
  if (!coupon) return jsonError(404, "Coupon not found");
  return Response.json(toCouponJson(coupon));
}

export const openapi: doc.ApiPaths = {
  "/api/admin/coupons/{id}/deactivate": {
    put: {
      summary: "Deactivates a coupon",
      ...doc.ON_ID,
      responses: {
        200: doc.answers("The updated coupon", shape.couponJson),
        ...doc.ADMIN_GUARD,
        404: doc.refused("Coupon not found"),
      },
    },
  },
};
