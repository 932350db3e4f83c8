import type { Booking } from "#db/schema";
import { db, isDatabaseBusyResponse, type Tx, writeTransaction } from "#app/db.server";
import { holdRanOut } from "#app/domain/holds";
import { transitionProblem } from "#app/domain/admin-workflow";
import { conflictsWith } from "#app/domain/availability";
import type { BookingStatus } from "#app/domain/booking-status";
import { claimProblem } from "#app/domain/booking-claim";
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
  CancellationError,
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

/**
 * The staff workflow (admin Bookings and Sessions tabs, PUT /api/admin/bookings/{id}): every
 * status change goes through `changeBookingStatus`, which applies the one rule of
 * domain/admin-workflow, keeps the booking history and queues the customer's e-mail. A
 * booking another action holds (a cancellation or checkout in flight) is refused with the
 * claim's reason.
 */

export class WorkflowError extends Error {
  constructor(
    readonly kind: "not-found" | "refused",
    message: string,
  ) {
    super(message);
    this.name = "WorkflowError";
  }
}

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
 * Moves a booking to `to` for staff. Cancelling refunds everything paid (see cancelForStudio).
 * Moving an unpaid booking forward (paid another way) first closes its hosted checkout, so it
 * cannot take the money again: claim (CHECKOUT_CLOSE), close, record. Any other change runs in
 * one IMMEDIATE transaction: the rule is checked against the row as it is inside the
 * transaction, the history row and any e-mail are written with the change.
 * Throws WorkflowError (not found, or refused with the reason) and PaymentServiceError.
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
  if (!found) throw new WorkflowError("not-found", "Booking not found");
  const problem = transitionProblem(found.status, to) ?? claimProblem(found.claim);
  if (problem) throw new WorkflowError("refused", problem);

  if (to === "CANCELLED") {
    try {
      const { booking } = await cancelForStudio(
        { bookingId, actorUserId: actor.id, note },
        now,
        settings,
      );
      return booking;
    } catch (error) {
      if (error instanceof CancellationError) {
        throw new WorkflowError(
          error.kind === "not-found" ? "not-found" : "refused",
          error.message,
        );
      }
      throw error;
    }
  }

  // The order's hosted checkout may still charge for this session, with others of its order.
  const checkoutId = openCheckoutOf(db, found);
  if (checkoutId === null) {
    return writeTransaction((tx) => writeMove(tx, bookingId, to, actor, note, now, settings, null));
  }

  // Staff took the payment another way: a hosted checkout left open must not take it again.
  const token = writeTransaction((tx) => {
    const current = checkedMove(tx, bookingId, to, now, settings);
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
      return writeMove(tx, bookingId, to, actor, note, now, settings, token);
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
function checkedMove(
  tx: Tx,
  bookingId: number,
  to: BookingStatus,
  now: number,
  settings: WorkflowSettings,
  token: ClaimToken | null = null,
): Booking {
  const current = getBooking(tx, bookingId);
  if (!current) throw new WorkflowError("not-found", "Booking not found");
  const held = token && holdsClaim(current, token) ? null : claimProblem(current.claim);
  const refused = transitionProblem(current.status, to) ?? held;
  if (refused) throw new WorkflowError("refused", refused);
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
      throw new WorkflowError("refused", SLOT_LOST_MESSAGE);
    }
  }
  return current;
}

function writeMove(
  tx: Tx,
  bookingId: number,
  to: BookingStatus,
  actor: Actor,
  note: string | null,
  now: number,
  settings: WorkflowSettings,
  token: ClaimToken | null,
): Booking {
  const current = checkedMove(tx, bookingId, to, now, settings, token);
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
      if (error instanceof WorkflowError || error instanceof PaymentServiceError) {
        failures.push({ bookingId, message: error.message });
      } else if (isDatabaseBusyResponse(error)) {
        failures.push({ bookingId, message: "The database was busy." });
      } else {
        throw error;
      }
    }
  }
  return { updated, total: unique.length, failures };
}
