import type { Booking } from "#db/schema";
import { writeTransaction } from "#app/db.server";
import type { RefundQuote } from "#app/domain/cancellation";
import { formatDollars } from "#app/domain/pricing";
import { followingSessions } from "#app/domain/series-sessions";
import { seriesCancelledEmail } from "#app/emails/templates.server";
import { logError } from "#app/log.server";
import { getBooking } from "#app/models/booking.server";
import { cancellationQuote, cancelProblem } from "#app/models/cancellation.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { listOrderSessions, seriesOfBooking } from "#app/models/order.server";
import { accountEmail } from "#app/models/user.server";
import {
  CancellationError,
  type CancellationSettings,
  type CancelledSession,
  cancelOwnBooking,
  configuredCancellationSettings,
} from "#app/workflows/cancel-booking.server";

/**
 * "This and all later" (docs/product.md "Weekly series"): the customer cancels a session of a
 * series and every later one still booked. Each session goes through the one cancellation
 * (cancel-booking.server.ts: its own claim, its own refund under the 24-hour rule, its own
 * credit note), one after the other, so the payment provider is never asked about two at
 * once; then one e-mail lists them all. Everything is checked first: one session that cannot
 * be cancelled refuses the whole request, nothing changed. A provider failure part way stops
 * there: the sessions already cancelled stay cancelled (their money went back) and are
 * reported, the rest are untouched and can be cancelled again.
 */
export const NOT_A_SERIES_MESSAGE = "This session is not part of a series: cancel it on its own.";

export type FollowingPlan = {
  sessions: { booking: Booking; quote: RefundQuote }[];
  refund: number;
};

/** What "this and all later" would cancel and refund now, or why it cannot. */
export function planCancelFollowing(
  booking: Booking,
  now: number,
  feePercent: number,
): { plan: FollowingPlan } | { problem: string } {
  if (booking.orderId === null || !seriesOfBooking(booking))
    return { problem: NOT_A_SERIES_MESSAGE };
  const first = cancelProblem(booking, now);
  if (first) return { problem: first };
  const sessions = followingSessions(booking, listOrderSessions(booking.orderId));
  const planned: FollowingPlan["sessions"] = [];
  for (const session of sessions) {
    const problem = cancelProblem(session, now);
    if (problem) return { problem: `Booking #${session.id}: ${problem}` };
    planned.push({ booking: session, quote: cancellationQuote(session, now, feePercent) });
  }
  return {
    plan: { sessions: planned, refund: planned.reduce((sum, { quote }) => sum + quote.refund, 0) },
  };
}

export type FollowingResult = {
  cancelled: { booking: Booking; quote: RefundQuote }[];
  /** The session the provider failed on, when it stopped part way. */
  stopped: { bookingId: number; error: unknown } | null;
};

export async function cancelOwnFollowing(
  input: { bookingId: number; userId: number; expectedRefund?: number | null },
  now: number,
  settings: CancellationSettings = configuredCancellationSettings(),
): Promise<FollowingResult> {
  const booking = getBooking(input.bookingId);
  if (!booking || booking.userId !== input.userId) {
    throw new CancellationError("not-found", "Booking not found");
  }
  const planned = planCancelFollowing(booking, now, settings.feePercent);
  if ("problem" in planned) throw new CancellationError("not-cancellable", planned.problem);
  const { plan } = planned;
  if (input.expectedRefund != null && input.expectedRefund !== plan.refund) {
    throw new CancellationError(
      "quote-changed",
      `The refund is now ${formatDollars(plan.refund)}, not ${formatDollars(input.expectedRefund)}: please review it and confirm again.`,
    );
  }

  const collected: CancelledSession[] = [];
  const cancelled: FollowingResult["cancelled"] = [];
  let stopped: FollowingResult["stopped"] = null;
  for (const { booking: session } of plan.sessions) {
    try {
      const done = await cancelOwnBooking(
        { bookingId: session.id, userId: input.userId, collect: collected },
        now,
        settings,
      );
      cancelled.push(done);
    } catch (error) {
      stopped = { bookingId: session.id, error };
      break;
    }
  }
  sendOneEmail(cancelled, collected);
  if (stopped && cancelled.length === 0) throw stopped.error;
  return { cancelled, stopped };
}

/** One e-mail for the sessions cancelled, carrying each one's calendar update and credit note. */
function sendOneEmail(cancelled: FollowingResult["cancelled"], collected: CancelledSession[]) {
  const first = cancelled[0];
  if (!first) return;
  const done = new Set(cancelled.map(({ booking }) => booking.id));
  // Only what committed: an entry whose transaction failed never reached `cancelled`.
  const attachments = collected
    .filter(({ booking }) => done.has(booking.id))
    .flatMap(({ attachments }) => attachments);
  try {
    writeTransaction((tx) => {
      enqueueEmail(tx, {
        kind: "booking-cancelled",
        to: accountEmail(first.booking.userId, tx),
        bookingId: first.booking.id,
        ...seriesCancelledEmail({ cancelled }),
        attachments,
      });
    });
  } catch (error) {
    // The cancellations stand; only the e-mail is missing, which staff can see in the log.
    logError(`Series cancellation from booking ${first.booking.id}: e-mail not queued`, error);
  }
}
