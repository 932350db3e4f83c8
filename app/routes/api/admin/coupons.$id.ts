import { parseId } from "#app/domain/ids";
import { z } from "#app/domain/zod";
import { setCouponActive, toCouponJson } from "#app/models/coupon.server";
import { jsonError, methodNotAllowed, readJson } from "#app/web/api.server";
import { requireApiAdmin } from "#app/web/auth.server";
import type { Route } from "./+types/coupons.$id";

/** Only the active flag can change: a coupon's code and value are what bookings recorded. */
const couponUpdate = z.object({
  isActive: z.boolean({ error: "isActive must be true or false" }),
});

export function loader() {
  return methodNotAllowed("PUT");
}

/** PUT /api/admin/coupons/{id} with {isActive: true} (Activate): the updated coupon. */
export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  await requireApiAdmin(request);
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Coupon not found");
  const { isActive } = await readJson(request, couponUpdate);
  const coupon = setCouponActive(id, isActive);
  if (!coupon) return jsonError(404, "Coupon not found");
  return Response.json(toCouponJson(coupon));
}
