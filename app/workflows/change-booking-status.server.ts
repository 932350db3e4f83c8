import type { Booking } from "#db/schema";
import { DatabaseBusyError, type Tx, writeTransaction, db } from "#app/db.server";
import { holdRanOut } from "#app/domain/holds";
import { statusChangeProblem } from "#app/domain/admin-workflow";
import { conflictsWith } from "#app/domain/availability";
import type { BookingStatus } from "#app/domain/booking-status";
import { claimProblem } from "#app/domain/booking-claim";
import { Refusal } from "#app/domain/refusal";
import { sessionCalendarAttachment } from "#app/emails/calendar.server";
import { bookingConfirmedEmail } from "#app/emails/templates.server";
import { env } from "#app/env.server";
import { logError } from "#app/log.server";
import { writeStatusChange } from "#app/models/admin-bookings.server";
import {
  type ClaimToken,
  claimBooking,
  holdsClaim,
  releaseClaim,
} from "#app/models/booking-claim.server";
import { getBooking, readBusyRanges } from "#app/models/booking.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { accountEmail } from "#app/models/user.server";
import {
  type CancellationSettings,
  cancelForStudio,
  configuredCancellationSettings,
} from "#app/workflows/cancel-booking.server";
import { forgetCheckout, openCheckoutOf } from "#app/models/order.server";
import { recordCheckoutSession } from "#app/workflows/fulfil-payment.server";
import {
  CANCEL_UNAVAILABLE_MESSAGE,
  callProvider,
  PaymentServiceError,
} from "#app/workflows/payment-provider.server";

/** Every staff status change goes through `changeBookingStatus`; a claimed booking is refused. */

export type WorkflowSettings = CancellationSettings & { bufferMinutes: number; appUrl: string };

export function configuredWorkflowSettings(): WorkflowSettings {
  return {
    ...configuredCancellationSettings(),
    bufferMinutes: env.BUFFER_MINUTES,
    appUrl: env.APP_URL,
  };
}

export const SLOT_LOST_MESSAGE =
  "The payment hold on this booking ran out and its time slot has since been taken by another booking or a blocked time, so it cannot go ahead. Cancel it instead.";

export type Actor = { id: number };

/**
 * An unpaid booking moved forward first has its hosted checkout closed (claim, close, record).
 * Throws a Refusal and PaymentServiceError.
 */
export async function changeBookingStatus(
  bookingId: number,
  to: BookingStatus,
  actor: Actor,
  note: string | null = null,
  now: number = Date.now(),
  settings: WorkflowSettings = configuredWorkflowSettings(),
): Promise<Booking> {
  const found = getBooking(db, bookingId);
  if (!found) throw new Refusal("not-found", "Booking not found");
  const problem =
    statusChangeProblem(found.status, to) ??
    claimProblem(found.claim, to === "CANCELLED" ? "studio" : undefined);
  if (problem) throw new Refusal("status-change-refused", problem);

  if (to === "CANCELLED") {
    const { booking } = await cancelForStudio(
      { bookingId, actorUserId: actor.id, note },
      now,
      settings,
    );
    return booking;
  }

  // The order's hosted checkout may still charge for this session, with others of its order.
  const checkoutId = openCheckoutOf(db, found);
  if (checkoutId === null) {
    return writeTransaction((tx) =>
      applyStatusChange(tx, bookingId, to, actor, note, now, settings, null),
    );
  }

  // Staff took the payment another way: a hosted checkout left open must not take it again.
  const token = writeTransaction((tx) => {
    const current = checkedStatusChange(tx, bookingId, to, now, settings);
    const claimed = claimBooking(tx, current.id, "CHECKOUT_CLOSE", now, actor.id);
    if (!claimed) throw new Error(`Booking ${bookingId} was claimed during its check`);
    return claimed;
  });
  try {
    const session = await callProvider(
      `Stripe: could not close Checkout Session ${checkoutId}`,
      CANCEL_UNAVAILABLE_MESSAGE,
      () => settings.provider.closeCheckout(checkoutId),
    );
    // Paid meanwhile: recorded, and the move goes on from the paid status.
    if (session.status === "complete") recordCheckoutSession(session);
    return writeTransaction((tx) => {
      // Closed for good: the order's other unpaid sessions get a new checkout when paid.
      if (found.orderId !== null) forgetCheckout(tx, found.orderId, checkoutId);
      return applyStatusChange(tx, bookingId, to, actor, note, now, settings, token);
    });
  } catch (error) {
    try {
      writeTransaction((tx) => releaseClaim(tx, token));
    } catch (releaseError) {
      // Busy past the timeout: the claim sweeper releases it once its lease is over.
      logError(`Booking ${bookingId}: checkout-close claim not released`, releaseError);
    }
    throw error;
  }
}

/** The booking as it is inside the transaction, if `to` may be applied to it now. */
function checkedStatusChange(
  tx: Tx,
  bookingId: number,
  to: BookingStatus,
  now: number,
  settings: WorkflowSettings,
  token: ClaimToken | null = null,
): Booking {
  const current = getBooking(tx, bookingId);
  if (!current) throw new Refusal("not-found", "Booking not found");
  const held = token && holdsClaim(current, token) ? null : claimProblem(current.claim);
  const refused = statusChangeProblem(current.status, to) ?? held;
  if (refused) throw new Refusal("status-change-refused", refused);
  if (holdRanOut(current, now)) {
    // The slot was released when the hold ran out: it is only still this booking's if
    // nothing live took it meanwhile.
    const buffer = settings.bufferMinutes * 60_000;
    const busy = readBusyRanges(
      { from: current.startsAt - buffer, to: current.endsAt + buffer },
      now,
      current.id,
    );
    if (conflictsWith(current, busy, settings.bufferMinutes)) {
      throw new Refusal("status-change-refused", SLOT_LOST_MESSAGE);
    }
  }
  return current;
}

function applyStatusChange(
  tx: Tx,
  bookingId: number,
  to: BookingStatus,
  actor: Actor,
  note: string | null,
  now: number,
  settings: WorkflowSettings,
  token: ClaimToken | null,
): Booking {
  const current = checkedStatusChange(tx, bookingId, to, now, settings, token);
  const updated = writeStatusChange(tx, current, { to, actorUserId: actor.id, note, now });
  if (!updated) throw new Error(`Booking ${current.id} changed during its status change`);
  if (to === "CONFIRMED") {
    enqueueEmail(tx, {
      kind: "booking-confirmed",
      to: accountEmail(tx, updated.userId),
      bookingId: updated.id,
      ...bookingConfirmedEmail({
        booking: updated,
        detailsUrl: `${settings.appUrl}/dashboard/sessions/${updated.id}`,
      }),
      attachments: [sessionCalendarAttachment(updated, settings.appUrl, now)],
    });
  }
  return updated;
}

export type BulkResult = {
  updated: number;
  total: number;
  /** Why each booking that did not change was left as it was. */
  failures: { bookingId: number; message: string }[];
};

/**
 * The bulk 'Update Status' menu: each booking on its own, in the order given (docs/product.md
 * "Admin workflow": "one by one"), so one refusal does not undo or stop the others.
 */
export async function bulkChangeStatus(
  ids: readonly number[],
  to: BookingStatus,
  actor: Actor,
  now: number = Date.now(),
  settings: WorkflowSettings = configuredWorkflowSettings(),
): Promise<BulkResult> {
  const unique = [...new Set(ids)];
  const failures: BulkResult["failures"] = [];
  let updated = 0;
  for (const bookingId of unique) {
    try {
      await changeBookingStatus(bookingId, to, actor, null, now, settings);
      updated += 1;
    } catch (error) {
      if (error instanceof Refusal || error instanceof PaymentServiceError) {
        failures.push({ bookingId, message: error.message });
      } else if (error instanceof DatabaseBusyError) {
        failures.push({ bookingId, message: "The database was busy." });
      } else {
        throw error;
      }
    }
  }
  return { updated, total: unique.length, failures };
}
