import { shortSessionDate } from "#app/domain/session-list";
import { env } from "#app/env.server";
import type { getBooking } from "#app/models/booking.server";
import { planCancelFollowing } from "#app/workflows/cancel-booking.server";

type Booking = NonNullable<ReturnType<typeof getBooking>>;

/**
 * A series session's page offers staff to cancel it and every later session for the studio
 * (docs/product.md "Orders"): how many, their dates and the full refund. Null for a session
 * booked alone, the last one of its series, or one that cannot be cancelled now.
 */
export function studioCancelFollowing(booking: Booking) {
  const planned = planCancelFollowing(booking, Date.now(), env.CANCELLATION_FEE_PERCENT, "studio");
  if ("problem" in planned || planned.plan.sessions.length < 2) return null;
  return {
    count: planned.plan.sessions.length,
    refund: planned.plan.refund,
    dates: planned.plan.sessions.map(({ booking: session }) => shortSessionDate(session)),
  };
}
