import type { cancelledFollowingJson, followingQuoteShape } from "#app/routes/api/json/shapes";
import { env } from "#app/env.server";
import type { z } from "#app/domain/zod";
import { toBookingJson } from "#app/routes/api/json/booking";
import { jsonError } from "#app/web/api.server";
import { cancelOwnFollowing, planCancelFollowing } from "#app/workflows/cancel-booking.server";
import { Refusal } from "#app/domain/refusal";
import { jsonRefusal } from "#app/web/refusals.server";
import { PaymentServiceError } from "#app/workflows/payment-provider.server";

export async function cancelFollowingJson(
  bookingId: number,
  userId: number,
  expectedRefund: number | null,
) {
  try {
    const { cancelled, stopped } = await cancelOwnFollowing(
      { bookingId, userId, expectedRefund },
      Date.now(),
    );
    if (stopped) {
      const message =
        stopped.error instanceof PaymentServiceError
          ? stopped.error.message
          : "The cancellation stopped part way; please try again.";
      return jsonError(502, message, {
        cancelled: cancelled.map(({ booking }) => ({ id: booking.id })),
      });
    }
    return Response.json({
      cancelled: cancelled.map(({ booking, quote }) => ({
        booking: toBookingJson(booking),
        refund: quote,
      })),
      refund: cancelled.reduce((sum, { quote }) => sum + quote.refund, 0),
    } satisfies z.infer<typeof cancelledFollowingJson>);
  } catch (error) {
    if (error instanceof Refusal) return jsonRefusal(error);
    if (error instanceof PaymentServiceError) return jsonError(502, error.message);
    throw error;
  }
}

/**
 * GET /api/bookings/{id}/cancel?scope=following: what "this and all later" would cancel and
 * refund now, so a program can show it and confirm with its total as `expectedRefund`.
 */
export function followingQuoteJson(
  booking: Parameters<typeof planCancelFollowing>[0],
  now: number,
) {
  const planned = planCancelFollowing(booking, now, env.CANCELLATION_FEE_PERCENT);
  const body: z.infer<typeof followingQuoteShape> =
    "problem" in planned
      ? {
          bookingId: booking.id,
          cancellable: false,
          message: planned.problem,
          sessions: [],
          refund: null,
        }
      : {
          bookingId: booking.id,
          cancellable: true,
          message: null,
          sessions: planned.plan.sessions.map(({ booking: session, quote }) => ({
            bookingId: session.id,
            refund: quote,
          })),
          refund: planned.plan.refund,
        };
  return Response.json(body);
}
