import { parseId } from "#app/domain/ids";
import { setCouponActive, toCouponJson } from "#app/models/coupon.server";
import { jsonError } from "#app/web/api.server";
import type { Route } from "./+types/coupons.deactivate";

/** PUT /api/admin/coupons/{id}/deactivate with {}: the updated coupon. */
export async function action({ params }: Route.ActionArgs) {
  const id = parseId(params.id);
  const coupon = id === null ? undefined : setCouponActive(id, false);
  if (!coupon) return jsonError(404, "Coupon not found");
  return Response.json(toCouponJson(coupon));
}
