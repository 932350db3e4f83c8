import { and, asc, desc, eq } from "drizzle-orm";
import { type Booking, bookingHistory, bookings, payments, users } from "#db/schema";
import type { BookingStatus } from "#app/domain/booking-status";
import { db, isDatabaseBusyResponse, writeTransaction } from "#app/db.server";
import { transitionProblem } from "#app/domain/admin-workflow";
import { conflictsWith } from "#app/domain/availability";
import type { BookingFilters } from "#app/domain/booking-filters";
import { sessionCalendarAttachment } from "#app/emails/calendar.server";
import { bookingFilterWhere } from "#app/models/booking-filters.server";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { bookingConfirmedEmail } from "#app/emails/templates.server";
import { env } from "#app/env.server";
import { PaymentServiceError } from "#app/integrations/payments/provider.server";
import { getBooking, readBusyRanges } from "#app/models/booking.server";
import {
  CancellationError,
  type CancellationSettings,
  cancelForStudio,
  configuredCancellationSettings,
} from "#app/models/cancellation.server";

/**
 * The staff workflow (admin Bookings and Sessions tabs, PUT /api/admin/bookings/{id}): every
 * status change goes through `changeBookingStatus`, which applies the one rule of
 * domain/admin-workflow, keeps the booking history and queues the customer's e-mail.
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
 * Moves a booking to `to` for staff. Cancelling refunds everything paid (see cancelForStudio);
 * any other change runs in one IMMEDIATE transaction: the rule is checked against the row as
 * it is inside the transaction, the history row and any e-mail are written with the change.
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
  const found = getBooking(bookingId);
  if (!found) throw new WorkflowError("not-found", "Booking not found");
  const problem = transitionProblem(found.status, to);
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

  if (found.status === "PENDING_PAYMENT") {
    // Staff took the payment another way: a hosted checkout left open must not take it again.
    await settings.provider.closeCheckout(found);
  }
  return writeTransaction((tx) => {
    const current = getBooking(bookingId, tx);
    if (!current) throw new WorkflowError("not-found", "Booking not found");
    const refused = transitionProblem(current.status, to);
    if (refused) throw new WorkflowError("refused", refused);
    if (current.status === "PENDING_PAYMENT" && (current.holdExpiresAt ?? 0) <= now) {
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
    const updated = tx
      .update(bookings)
      .set({ status: to, holdExpiresAt: null })
      .where(and(eq(bookings.id, current.id), eq(bookings.status, current.status)))
      .returning()
      .get();
    if (!updated) throw new Error(`Booking ${current.id} changed during its status change`);
    tx.insert(bookingHistory)
      .values({
        bookingId: current.id,
        actorUserId: actor.id,
        fromStatus: current.status,
        toStatus: to,
        note,
        createdAt: now,
      })
      .run();
    if (to === "CONFIRMED") {
      enqueueEmail(tx, {
        kind: "booking-confirmed",
        to: updated.email,
        bookingId: updated.id,
        ...bookingConfirmedEmail({
          booking: updated,
          detailsUrl: `${settings.appUrl}/dashboard/sessions/${updated.id}`,
        }),
        attachments: [sessionCalendarAttachment(updated, settings.appUrl, now)],
      });
    }
    return updated;
  });
}

export type BulkResult = {
  updated: number;
  total: number;
  /** Why each booking that did not change was left as it was. */
  failures: { bookingId: number; message: string }[];
};

/**
 * The bulk 'Update Status' menu: each booking on its own, in the order given (spec section 4
 * "one by one"), so one refusal does not undo or stop the others.
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

/**
 * One page of bookings for the filters, sorted in SQL. A single day reads as that day's
 * agenda (earliest first); otherwise the latest sessions come first, upcoming ones included,
 * so what staff work on now is on the first pages. Both orders walk the starts_at index (with
 * the status in front of it when filtered) and stop after one page and one row: no count.
 */
export function listAdminBookings(filters: BookingFilters): Page<Booking> {
  return toPage(adminBookingsQuery(filters).all(), filters.page);
}

/** The page's query, unrun (its plan is checked by the model tests). */
export function adminBookingsQuery(filters: BookingFilters) {
  const { limit, offset } = pageWindow(filters.page);
  const order = filters.date
    ? [asc(bookings.startsAt), asc(bookings.id)]
    : [desc(bookings.startsAt), desc(bookings.id)];
  return db
    .select()
    .from(bookings)
    .where(bookingFilterWhere(filters))
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
}

/** A booking's page: the booking, its client's account, money and history (oldest first). */
export function getAdminBookingDetails(bookingId: number) {
  const booking = getBooking(bookingId);
  if (!booking) return null;
  const client = db
    .select({ id: users.id, username: users.username, isMember: users.isMember })
    .from(users)
    .where(eq(users.id, booking.userId))
    .get();
  const moneyRows = db
    .select({
      id: payments.id,
      amount: payments.amount,
      method: payments.paymentMethod,
      details: payments.paymentDetails,
      date: payments.paymentDate,
      transactionId: payments.transactionId,
    })
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .orderBy(asc(payments.paymentDate), asc(payments.id))
    .all();
  const history = db
    .select({
      id: bookingHistory.id,
      createdAt: bookingHistory.createdAt,
      fromStatus: bookingHistory.fromStatus,
      toStatus: bookingHistory.toStatus,
      note: bookingHistory.note,
      username: users.username,
    })
    .from(bookingHistory)
    .leftJoin(users, eq(users.id, bookingHistory.actorUserId))
    .where(eq(bookingHistory.bookingId, bookingId))
    .orderBy(asc(bookingHistory.createdAt), asc(bookingHistory.id))
    .all();
  return {
    booking,
    client: client ?? null,
    payments: moneyRows,
    paid: moneyRows.reduce((sum, row) => sum + row.amount, 0),
    history,
  };
}
