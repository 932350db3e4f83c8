import * as shape from "#app/domain/api-shapes";
import { CANCEL_SCOPES } from "#app/domain/series-sessions";
import { z } from "#app/domain/zod";

/**
 * POST /api/bookings/{id}/cancel with `"scope": "following"` (docs/product.md "Weekly series"):
 * every session cancelled with its refund, and the refunds added up (whole dollars).
 */
export const cancelledFollowingJson = z.strictObject({
  cancelled: z.array(shape.cancelledJson),
  refund: z.number().int(),
});

/** GET /api/bookings/{id}/cancel?scope=following: each session's refund and their total. */
export const followingQuoteShape = z.strictObject({
  bookingId: z.number().int(),
  cancellable: z.boolean(),
  message: z.string().nullable(),
  sessions: z.array(z.strictObject({ bookingId: z.number().int(), refund: shape.refundQuoteJson })),
  refund: z.number().int().nullable(),
});

/** The cancel endpoint's `?scope=`: "one" (the default) or "following". */
export const cancelScopeQuery = z.object({ scope: z.enum(CANCEL_SCOPES).optional() });

export const SCOPE_QUERY_MESSAGE = 'scope must be "one" or "following"';
