import * as shape from "#app/domain/api-shapes";
import { CANCEL_SCOPES } from "#app/domain/series-sessions";
import { z } from "#app/domain/zod";

/** docs/product.md "Weekly series". */
export const cancelledFollowingJson = z.strictObject({
  cancelled: z.array(shape.cancelledJson),
  refund: z.number().int(),
});

export const followingQuoteShape = z.strictObject({
  bookingId: z.number().int(),
  cancellable: z.boolean(),
  message: z.string().nullable(),
  sessions: z.array(z.strictObject({ bookingId: z.number().int(), refund: shape.refundQuoteJson })),
  refund: z.number().int().nullable(),
});

export const cancelScopeQuery = z.object({ scope: z.enum(CANCEL_SCOPES).optional() });

export const SCOPE_QUERY_MESSAGE = 'scope must be "one" or "following"';
