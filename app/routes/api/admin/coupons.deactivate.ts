import { parseId } from "#app/domain/ids";
import { setCouponActive, toCouponJson } from "#app/models/coupon.server";
import { jsonError, methodNotAllowed } from "#app/web/api.server";
import { requireApiAdmin } from "#app/web/auth.server";
import type { Route } from "./+types/coupons.deactivate";

export function loader() {
  return methodNotAllowed("PUT");
}

/** PUT /api/admin/coupons/{id}/deactivate with {}: the updated coupon. */
export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  await requireApiAdmin(request);
  const id = parseId(params.id);
  const coupon = id === null ? undefined : setCouponActive(id, false);
  if (!coupon) return jsonError(404, "Coupon not found");
  return Response.json(toCouponJson(coupon));
}
