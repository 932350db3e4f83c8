import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import { type Booking, bookingHistory, bookings, payments } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { transitionProblem } from "#app/domain/admin-workflow";
import {
  canCancel,
  type RefundQuote,
  refundQuote,
  studioRefundQuote,
} from "#app/domain/cancellation";
import { formatDollars } from "#app/domain/pricing";
import { sessionCalendarAttachment } from "#app/emails/calendar.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { bookingCancelledEmail } from "#app/emails/templates.server";
import { env } from "#app/env.server";
import { logError } from "#app/log.server";
import { type PaymentProvider, paymentProvider } from "#app/integrations/payments/provider.server";
import {
  getBooking,
  getOwnBooking,
  releaseRetainerHours,
  releaseUnpaidBooking,
  type Tx,
} from "#app/models/booking.server";

/**
 * Cancelling a session, by its customer (product-decisions "Cancel, refund, reschedule") or by
 * staff for the studio (the admin workflow), through one implementation.
 * The refund goes through the payment provider first, outside any transaction (a network
 * call must not hold the write lock); there is one refund per booking, so a double submit or
 * a retry after a crash gets the refund already made back instead of a second one. Then one IMMEDIATE transaction
 * cancels the booking, records the refund as a negative payment, gives back what the booking
 * took and queues the e-mail.
 */
export const CANCELLED_BY_CUSTOMER = "Cancelled by the customer";
export const CANCELLED_BY_STUDIO = "Cancelled by the studio";

export class CancellationError extends Error {
  constructor(
    readonly kind: "not-found" | "not-cancellable" | "quote-changed",
    message: string,
    /** The refund as it stands now, when it differs from what the customer was shown. */
    readonly quote?: RefundQuote,
  ) {
    super(message);
    this.name = "CancellationError";
  }
}

export type CancellationSettings = {
  feePercent: number;
  provider: Pick<PaymentProvider, "refund" | "closeCheckout">;
};

export function configuredCancellationSettings(): CancellationSettings {
  return { feePercent: env.CANCELLATION_FEE_PERCENT, provider: paymentProvider() };
}

type Reader = Pick<typeof db, "select">;

/** What the customer has paid for a booking, net of refunds, in whole dollars. */
export function paidFor(bookingId: number, reader: Reader = db): number {
  const row = reader
    .select({ total: sql<number>`coalesce(sum(${payments.amount}), 0)` })
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .get();
  return row?.total ?? 0;
}

/** What cancelling `booking` at `now` would refund: shown before the customer confirms. */
export function cancellationQuote(booking: Booking, now: number, feePercent: number): RefundQuote {
  return refundQuote({ startsAt: booking.startsAt, paid: paidFor(booking.id) }, now, feePercent);
}

/** Why a booking cannot be cancelled by its customer now, or null when it can. */
export function cancelProblem(booking: Booking, now: number, reader: Reader = db): string | null {
  if (booking.status === "CANCELLED") return "This booking is already cancelled.";
  if (!canCancel(booking, now)) {
    return booking.startsAt <= now
      ? "This session has already started, so it can no longer be cancelled."
      : "This session can no longer be cancelled online. Please contact the studio.";
  }
  // Refunding a package whose hours later sessions use would make those sessions free.
  if (booking.isRetainer && retainerInUse(booking.id, reader)) {
    return "Other sessions use hours of this retainer package, so it cannot be cancelled online. Please contact the studio.";
  }
  return null;
}

function retainerInUse(retainerBookingId: number, reader: Reader): boolean {
  const drawing = reader
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.retainerBookingId, retainerBookingId),
        gt(bookings.retainerHoursDrawn, 0),
        ne(bookings.status, "CANCELLED"),
      ),
    )
    .get();
  return drawing !== undefined;
}

type MadeRefund = { refundId: string; amount: number; of: string };

/** Who cancels: the customer (the fee rule, online limits) or staff for the studio. */
type Canceller =
  | { by: "customer"; actorUserId: number; expectedRefund?: number | null }
  | { by: "studio"; actorUserId: number; note?: string | null };

export async function cancelOwnBooking(
  input: { bookingId: number; userId: number; expectedRefund?: number | null },
  now: number,
  settings: CancellationSettings = configuredCancellationSettings(),
): Promise<{ booking: Booking; quote: RefundQuote }> {
  const booking = getOwnBooking(input.bookingId, input.userId);
  if (!booking) throw new CancellationError("not-found", "Booking not found");
  const problem = cancelProblem(booking, now);
  if (problem) throw new CancellationError("not-cancellable", problem);
  return cancelWithRefund(
    booking,
    { by: "customer", actorUserId: input.userId, expectedRefund: input.expectedRefund },
    now,
    settings,
  );
}

/**
 * Staff cancelling a booking for the studio (admin workflow): allowed from any status but
 * CANCELLED and COMPLETED, at any time, and everything paid is refunded (the studio cancels,
 * so no fee). The same machinery as a customer's cancellation: one refund per booking, made
 * before the transaction that records it.
 */
export async function cancelForStudio(
  input: { bookingId: number; actorUserId: number; note?: string | null },
  now: number,
  settings: CancellationSettings = configuredCancellationSettings(),
): Promise<{ booking: Booking; quote: RefundQuote }> {
  const booking = getBooking(input.bookingId);
  if (!booking) throw new CancellationError("not-found", "Booking not found");
  const problem = studioCancelProblem(booking);
  if (problem) throw new CancellationError("not-cancellable", problem);
  return cancelWithRefund(
    booking,
    { by: "studio", actorUserId: input.actorUserId, note: input.note },
    now,
    settings,
  );
}

/** Why staff cannot cancel a booking, or null when they can. */
export function studioCancelProblem(booking: Booking, reader: Reader = db): string | null {
  const problem = transitionProblem(booking.status, "CANCELLED");
  if (problem) return problem;
  // Refunding a package in full while later sessions use its hours would make them free.
  if (booking.isRetainer && retainerInUse(booking.id, reader)) {
    return "Other sessions use hours of this retainer package: cancel those sessions first.";
  }
  return null;
}

async function cancelWithRefund(
  found: Booking,
  who: Canceller,
  now: number,
  settings: CancellationSettings,
): Promise<{ booking: Booking; quote: RefundQuote }> {
  let booking = found;
  if (booking.status === "PENDING_PAYMENT") {
    // A hosted checkout left open could still take the money after the cancellation.
    await settings.provider.closeCheckout(booking);
    booking = getBooking(booking.id) ?? booking;
  }

  const quote =
    who.by === "customer"
      ? cancellationQuote(booking, now, settings.feePercent)
      : studioRefundQuote(paidFor(booking.id));
  if (who.by === "customer" && who.expectedRefund != null && who.expectedRefund !== quote.refund) {
    throw new CancellationError(
      "quote-changed",
      `The refund is now ${formatDollars(quote.refund)}, not ${formatDollars(who.expectedRefund)}: please review it and confirm again.`,
      quote,
    );
  }

  let refund: MadeRefund | null = null;
  if (quote.refund > 0) {
    const payment = latestCharge(booking.id);
    if (!payment?.transactionId) throw new Error(`Booking ${booking.id} is paid but has no charge`);
    // One refund per booking at the provider: an earlier attempt that refunded but was not
    // recorded (a crash, a busy database) is found and recorded, never made a second time.
    const made = await settings.provider.refund({
      bookingId: booking.id,
      paymentTransactionId: payment.transactionId,
      amount: quote.refund,
    });
    refund = { ...made, of: payment.transactionId };
  }
  const settled = refund ? settledQuote(quote, refund.amount) : quote;

  try {
    const cancelled = recordCancellation(booking.id, who, settled, refund, now);
    return { booking: cancelled, quote: settled };
  } catch (error) {
    if (refund && !(error instanceof CancellationError)) {
      logError(
        `Booking ${booking.id}: refund ${refund.refundId} was made but not recorded; the next cancel attempt records it`,
        error,
      );
    }
    throw error;
  }
}

/** The quote as the provider settled it: an earlier attempt's refund may differ from now's. */
function settledQuote(quote: RefundQuote, refunded: number): RefundQuote {
  if (quote.kind === "unpaid" || refunded === quote.refund) return quote;
  const fee = quote.paid - refunded;
  return fee === 0
    ? { kind: "full", paid: quote.paid, fee: 0, refund: refunded }
    : { kind: "late", paid: quote.paid, fee, refund: refunded };
}

/** The cancellation's writes, in one IMMEDIATE transaction after any refund was made. */
function recordCancellation(
  bookingId: number,
  who: Canceller,
  quote: RefundQuote,
  refund: MadeRefund | null,
  now: number,
): Booking {
  return writeTransaction((tx) => {
    const current = getBooking(bookingId, tx);
    if (!current) throw new CancellationError("not-found", "Booking not found");
    if (current.status === "CANCELLED") {
      // A concurrent cancellation won; the provider gave both the same refund.
      if (refund) recordRefund(tx, current, refund, now);
      return current;
    }
    // Money already went back: the booking is cancelled whatever happened meanwhile.
    const problem = refund
      ? null
      : who.by === "customer"
        ? cancelProblem(current, now, tx)
        : studioCancelProblem(current, tx);
    if (problem) throw new CancellationError("not-cancellable", problem);
    const updated = tx
      .update(bookings)
      .set({
        status: "CANCELLED",
        cancellationReason: who.by === "customer" ? CANCELLED_BY_CUSTOMER : CANCELLED_BY_STUDIO,
        cancelledAt: now,
        holdExpiresAt: null,
      })
      .where(and(eq(bookings.id, current.id), eq(bookings.status, current.status)))
      .returning()
      .get();
    if (!updated) throw new Error(`Booking ${current.id} changed during its cancellation`);
    if (quote.paid === 0) releaseUnpaidBooking(tx, current);
    else releaseRetainerHours(tx, current);
    if (refund) recordRefund(tx, current, refund, now);
    tx.insert(bookingHistory)
      .values({
        bookingId: current.id,
        actorUserId: who.actorUserId,
        fromStatus: current.status,
        toStatus: "CANCELLED",
        note: historyNote(who, quote),
        createdAt: now,
      })
      .run();
    enqueueEmail(tx, {
      kind: "booking-cancelled",
      to: updated.email,
      bookingId: updated.id,
      ...bookingCancelledEmail({ booking: updated, quote, by: who.by }),
      // A CANCELLED event with the same UID takes the session out of the customer's calendar.
      attachments: [sessionCalendarAttachment(updated, env.APP_URL, now)],
    });
    return updated;
  });
}

/** The charge a refund goes back to: the booking's (only) positive payment. */
function latestCharge(bookingId: number) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, bookingId), gt(payments.amount, 0)))
    .orderBy(desc(payments.paymentDate), desc(payments.id))
    .get();
}

function recordRefund(tx: Tx, booking: Booking, refund: MadeRefund, now: number) {
  tx.insert(payments)
    .values({
      bookingId: booking.id,
      userId: booking.userId,
      amount: -refund.amount,
      paymentMethod: "refund",
      paymentDate: now,
      transactionId: refund.refundId,
      paymentDetails: { refundOf: refund.of, fee: booking.totalCost - refund.amount },
    })
    .onConflictDoNothing()
    .run();
}

function historyNote(who: Canceller, quote: RefundQuote): string {
  if (who.by === "studio") {
    const money =
      quote.kind === "unpaid"
        ? "nothing was paid"
        : `refunded ${formatDollars(quote.refund)} in full`;
    return [`${CANCELLED_BY_STUDIO}; ${money}`, who.note].filter(Boolean).join(". ");
  }
  if (quote.kind === "unpaid") return `${CANCELLED_BY_CUSTOMER}; nothing was paid`;
  if (quote.kind === "full")
    return `${CANCELLED_BY_CUSTOMER}; refunded ${formatDollars(quote.refund)} in full`;
  return `${CANCELLED_BY_CUSTOMER} within 24 hours; refunded ${formatDollars(quote.refund)}, kept a ${formatDollars(quote.fee)} fee`;
}
