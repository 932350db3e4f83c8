import { writeTransaction } from "#app/db.server";
import { CLAIM_LEASE_MS, isCancelClaim } from "#app/domain/booking-claim";
import { logError } from "#app/log.server";
import { claimTokenOf, listStaleClaims, releaseClaim } from "#app/models/booking-claim.server";
import { abandonCheckoutPlan } from "#app/models/order.server";
import {
  type CancellationSettings,
  configuredCancellationSettings,
  finishAbandonedCancellation,
} from "#app/workflows/cancel-booking.server";

/**
 * The claim sweeper (run by workflows/background.server.ts every minute). A claim still
 * standing after CLAIM_LEASE_MS was left by a request that was cut off: a crash, a deploy, a
 * database too busy to record, a provider call that failed and whose release failed too. No
 * live request holds a claim that long (provider calls time out far sooner), so:
 * - a cancellation is finished if the provider made its refund (asked idempotently: it looks,
 *   never refunds), and released otherwise;
 * - opening or closing a checkout is released (its plan abandoned, for closeUnansweredCheckouts
 *   to close what it may have opened): the customer's next attempt opens a fresh one, and a
 *   payment taken meanwhile reaches us by the webhook, which records money whatever holds it.
 */
export type SweepResult = { finished: number; released: number; failed: number };

export async function settleStaleClaims(
  now: number = Date.now(),
  settings: CancellationSettings = configuredCancellationSettings(),
): Promise<SweepResult> {
  const result: SweepResult = { finished: 0, released: 0, failed: 0 };
  for (const booking of listStaleClaims(now - CLAIM_LEASE_MS)) {
    const token = claimTokenOf(booking);
    if (!token) continue;
    try {
      if (isCancelClaim(token.claim)) {
        const outcome = await finishAbandonedCancellation(booking, token, now, settings);
        result[outcome] += 1;
        continue;
      }
      writeTransaction((tx) => {
        // A plan whose provider call never came back.
        if (
          token.claim === "CHECKOUT_OPEN" &&
          booking.orderId !== null &&
          booking.checkoutExpiresAt !== null
        ) {
          abandonCheckoutPlan(tx, booking.orderId, booking.checkoutExpiresAt);
        }
        releaseClaim(tx, token);
      });
      result.released += 1;
    } catch (error) {
      // One claim the provider or the database cannot settle now never stops the others;
      // the next sweep tries again.
      logError(`Claim sweeper: booking ${booking.id} (${token.claim})`, error);
      result.failed += 1;
    }
  }
  return result;
}
