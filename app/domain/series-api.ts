import * as shape from "#app/domain/api-shapes";
import { z } from "#app/domain/zod";

/**
 * POST /api/bookings/{id}/cancel with `"scope": "following"` (docs/product.md "Weekly series"):
 * every session cancelled with its refund, and the refunds added up (whole dollars).
 */
export const cancelledFollowingJson = z.strictObject({
  cancelled: z.array(shape.cancelledJson),
  refund: z.number().int(),
});
