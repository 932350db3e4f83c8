import { writeTransaction } from "#app/db.server";
import { formatDollars } from "#app/domain/pricing";
import { logError } from "#app/log.server";
import type { PaymentEvent } from "#app/integrations/payments/types";
import { recordBookingHistory } from "#app/models/booking.server";
import { eventSeen, paymentsOfCharge, recordEventSeen } from "#app/models/payment.server";

/**
 * A refund the provider reports (Stripe's `refund.created`). The site records its own refunds
 * when it makes them (docs/product.md "Cancel, refund, reschedule"), each naming its booking in
 * its metadata; a refund that names none of the sessions its charge paid was made by hand in
 * the provider's dashboard. It is never taken for a session's refund (no credit note, no
 * status change): staff are shown it on each session the charge paid, in its history, and in
 * the log, to settle by hand (docs/product.md "Orders").
 */
export type ProviderRefundOutcome = "ours" | "shown-to-staff" | "unknown-charge" | "duplicate";

export function noteProviderRefund(
  event: Pick<PaymentEvent, "id" | "type">,
  refund: NonNullable<PaymentEvent["refund"]>,
  now: number,
): ProviderRefundOutcome {
  const outcome = writeTransaction((tx): ProviderRefundOutcome => {
    if (eventSeen(tx, event.id)) return "duplicate";
    const paid = paymentsOfCharge(tx, refund.paymentId);
    const ours =
      refund.bookingId !== null && paid.some(({ booking }) => booking.id === refund.bookingId);
    const result: ProviderRefundOutcome =
      paid.length === 0 ? "unknown-charge" : ours ? "ours" : "shown-to-staff";
    if (result === "shown-to-staff") {
      for (const { booking } of paid) {
        recordBookingHistory(tx, {
          bookingId: booking.id,
          actorUserId: null,
          fromStatus: booking.status,
          toStatus: booking.status,
          note: `Stripe reports a refund of ${formatDollars(refund.amount)} (${refund.id}) on the payment for this session that was not made by the site: it is not recorded here. Check it in the Stripe dashboard.`,
          createdAt: now,
        });
      }
    }
    recordEventSeen(tx, { id: event.id, provider: "stripe", type: event.type }, null, now);
    return result;
  });
  if (outcome === "shown-to-staff") {
    logError(
      `Stripe: refund ${refund.id} of ${refund.paymentId}`,
      new Error("made outside the site; not recorded, shown on its sessions for staff"),
    );
  }
  return outcome;
}
