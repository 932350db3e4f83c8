import { parseId } from "#app/domain/ids";
import { z } from "#app/domain/zod";
import { setCouponActive } from "#app/models/coupon.server";
import { jsonError, readJson } from "#app/web/api.server";
import type { Route } from "./+types/coupons.$id";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { toCouponJson } from "#app/routes/api/json/coupon";

/** Only the active flag can change: a coupon's code and value are what bookings recorded. */
const couponUpdate = z.object({
  isActive: z.boolean({ error: "isActive must be true or false" }),
});

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = couponUpdate;

/** PUT /api/admin/coupons/{id} with {isActive: true} (Activate): the updated coupon. */
export async function action({ request, params }: Route.ActionArgs) {
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Coupon not found");
  const { isActive } = await readJson(request, jsonBody);
  const coupon = setCouponActive(id, isActive);
  if (!coupon) return jsonError(404, "Coupon not found");
  return Response.json(toCouponJson(coupon));
}

export const openapi: doc.ApiPaths = {
  "/api/admin/coupons/{id}": {
    put: {
      summary: "Activates (or deactivates) a coupon",
      ...doc.idAndBody(jsonBody),
      responses: {
        200: doc.answers("The updated coupon", shape.couponJson),
        ...doc.BODY_REFUSALS,
        ...doc.ADMIN_GUARD,
        404: doc.refused("Coupon not found"),
      },
    },
  },
};
