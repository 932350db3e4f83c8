import type { PaymentProvider } from "#app/integrations/payments/types";
import type { CancellationSettings } from "#app/workflows/cancel-booking.server";
import { closeUnansweredCheckouts } from "#app/workflows/checkout.server";
import { sweepExpiredHolds } from "#app/workflows/expire-holds.server";
import { settleStaleClaims } from "#app/workflows/settle-claims.server";
import { offerFreedRangesNow, type WaitlistSettings } from "#app/workflows/waitlist.server";

/**
 * The calendar and money part of each minute's background sweep, in the order its rules need.
 * workflows/background.server.ts runs it on the clock; the invariant harness runs the same two
 * functions with its fake provider, so the order it proves is the server's. Settings and the
 * provider default to the configured ones.
 */
export type SweepSettings = {
  waitlist?: WaitlistSettings;
  cancellation?: CancellationSettings;
  provider?: PaymentProvider;
};

/** Unpaid holds past their time are cancelled, then what they freed is offered to the waitlist. */
export function sweepHolds(now: number, settings: SweepSettings = {}) {
  const expired = sweepExpiredHolds(now);
  const offered = offerFreedRangesNow(now, settings.waitlist);
  return { expired, offered };
}

/**
 * Claims left by cut-off requests are settled (this asks the provider), then the checkouts of
 * plans they released are closed, then a range a finished cancellation freed is offered, so a
 * waiting customer does not wait another minute for it.
 */
export async function sweepClaims(now: number, settings: SweepSettings = {}) {
  const claims = await settleStaleClaims(now, settings.cancellation);
  const plans = await closeUnansweredCheckouts(now, settings.provider);
  const offered = offerFreedRangesNow(now, settings.waitlist);
  return { claims, plans, offered };
}
