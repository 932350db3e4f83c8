import type { Booking } from "#db/schema";
import { db, type DB, type Tx, writeTransaction } from "#app/db.server";
import type { BookingClaim } from "#app/domain/booking-claim";
import { type RefundQuote, studioRefundQuote } from "#app/domain/cancellation";
import { formatDollars } from "#app/domain/pricing";
import { RefundChangedRefusal, Refusal } from "#app/domain/refusal";
import type { ReceiptDetails } from "#app/domain/receipts";
import { sessionCalendarAttachment } from "#app/emails/calendar.server";
import { receiptAttachment } from "#app/emails/receipt-pdf.server";
import { bookingCancelledEmail, seriesCancelledEmail } from "#app/emails/templates.server";
import { env } from "#app/env.server";
import { logError, logEvent } from "#app/log.server";
import { metrics } from "#app/metrics.server";
import {
  type MadeRefund,
  type PaymentProvider,
  PaymentProviderError,
} from "#app/integrations/payments/types";
import {
  type ClaimToken,
  claimBooking,
  holdsClaim,
  releaseClaim,
} from "#app/models/booking-claim.server";
import { getBooking } from "#app/models/booking.server";
import {
  CANCELLED_BY_CUSTOMER,
  CANCELLED_BY_STUDIO,
  cancellationQuote,
  cancelProblem,
  latestCharge,
  paidFor,
  type RecordedRefund,
  studioCancelProblem,
  writeCancellation,
  writeRefund,
} from "#app/models/cancellation.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { listOrderSessions, openCheckoutOf, seriesOfBooking } from "#app/models/order.server";
import { followingSessions, providerCharge } from "#app/domain/series-sessions";
import { accountEmail } from "#app/models/user.server";
import { recordCheckoutSession } from "#app/workflows/fulfil-payment.server";
import {
  CANCEL_UNAVAILABLE_MESSAGE,
  callProvider,
  PaymentServiceError,
} from "#app/workflows/payment-provider.server";
import { offerFreedRangesNow } from "#app/workflows/waitlist.server";
import { paymentProvider } from "#app/adapters.server";

/**
 * Cancelling (docs/product.md "Cancel, refund, reschedule"): check and claim in one transaction
 * (so nothing else acts on the booking), call the provider outside any, record in a second; a
 * failed call releases the claim, a crash's claim is left to finishAbandonedCancellation.
 */
export { CANCELLED_BY_CUSTOMER, CANCELLED_BY_STUDIO };

export type CancellationSettings = {
  feePercent: number;
  provider: Pick<PaymentProvider, "refund" | "findRefund" | "closeCheckout">;
};

export function configuredCancellationSettings(): CancellationSettings {
  return { feePercent: env.CANCELLATION_FEE_PERCENT, provider: paymentProvider() };
}

type Canceller =
  | {
      by: "customer";
      actorUserId: number;
      expectedRefund?: number | null;
      /** Several sessions cancelled together get one e-mail: collected here, sent by the caller. */
      collect?: CancelledSession[];
    }
  | {
      by: "studio";
      actorUserId: number;
      note?: string | null;
      collect?: CancelledSession[];
    };

export type CancelledSession = {
  booking: Booking;
  quote: RefundQuote;
  attachments: ReturnType<typeof sessionCalendarAttachment>[];
};

export async function cancelOwnBooking(
  input: {
    bookingId: number;
    userId: number;
    expectedRefund?: number | null;
    collect?: CancelledSession[];
  },
  now: number,
  settings: CancellationSettings = configuredCancellationSettings(),
): Promise<{ booking: Booking; quote: RefundQuote }> {
  const cancelled = await cancelBooking(
    input.bookingId,
    {
      by: "customer",
      actorUserId: input.userId,
      expectedRefund: input.expectedRefund,
      ...(input.collect ? { collect: input.collect } : {}),
    },
    now,
    settings,
  );
  // The freed range goes to the waitlist now (docs/product.md "Waitlist").
  offerFreedRangesNow(now);
  return cancelled;
}

/** The studio cancels from any status but CANCELLED and COMPLETED, any time, refunding all. */
export async function cancelForStudio(
  input: { bookingId: number; actorUserId: number; note?: string | null },
  now: number,
  settings: CancellationSettings = configuredCancellationSettings(),
): Promise<{ booking: Booking; quote: RefundQuote }> {
  const cancelled = await cancelBooking(
    input.bookingId,
    { by: "studio", actorUserId: input.actorUserId, note: input.note },
    now,
    settings,
  );
  // The freed range goes to the waitlist now (docs/product.md "Waitlist").
  offerFreedRangesNow(now);
  return cancelled;
}

/** The refund's idempotency key: one refund per booking, whoever asks and however often. */
export const refundKey = (bookingId: number) => `refund-booking-${bookingId}`;

type Claimed =
  | { done: { booking: Booking; quote: RefundQuote } }
  | { token: ClaimToken; booking: Booking; quote: RefundQuote | null };

async function cancelBooking(
  bookingId: number,
  who: Canceller,
  now: number,
  settings: CancellationSettings,
): Promise<{ booking: Booking; quote: RefundQuote }> {
  const claimed = writeTransaction((tx): Claimed => {
    const booking = getBooking(tx, bookingId);
    // Another customer's booking is reported as missing, not forbidden.
    if (!booking || (who.by === "customer" && booking.userId !== who.actorUserId)) {
      throw new Refusal("not-found", "Booking not found");
    }
    const problem =
      who.by === "customer" ? cancelProblem(tx, booking, now) : studioCancelProblem(tx, booking);
    if (problem) throw new Refusal("not-cancellable", problem);
    // An open hosted checkout could still take the money: it is closed (step 2) before the
    // refund is known. Otherwise the quote is final now: nothing pays a claimed booking.
    // The checkout is the order's, paying this session and any other unpaid one of it.
    const closing = openCheckoutOf(tx, booking) !== null;
    const quote = closing ? null : quoteFor(tx, booking, who, now, settings.feePercent);
    if (quote) checkShownRefund(who, quote);
    if (quote && quote.refund === 0) {
      const cancelled = writeCancelled(tx, booking, who, quote, null, now);
      return { done: { booking: cancelled, quote } };
    }
    const token = claimBooking(tx, booking.id, claimOf(who), now, who.actorUserId);
    if (!token) throw new Error(`Booking ${booking.id} was claimed during its check`);
    return { token, booking, quote };
  });
  if ("done" in claimed) {
    logCancelled(claimed.done.booking, who, null);
    return claimed.done;
  }
  const { token } = claimed;

  let quote: RefundQuote;
  let refund: RecordedRefund | null = null;
  try {
    quote = claimed.quote ?? (await closeCheckoutFirst(claimed.booking, who, now, settings));
    if (quote.refund > 0) refund = await makeRefund(bookingId, quote.refund, settings);
  } catch (error) {
    giveUp(token, error);
    throw error;
  }

  try {
    const settled = refund ? settledQuote(quote, refund.amount) : quote;
    const booking = writeTransaction((tx) => recordClaimed(tx, token, who, settled, refund, now));
    logCancelled(booking, who, refund);
    return { booking, quote: settled };
  } catch (error) {
    if (refund) {
      // The money went back: the claim stays, so nothing else acts on the booking, and the
      // sweeper records this refund (it finds it at the provider) once the lease is over.
      logError(
        `Booking ${bookingId}: refund ${refund.refundId} was made but not recorded; the claim sweeper records it`,
        error,
      );
    } else {
      giveUp(token, error);
    }
    throw error;
  }
}

function logCancelled(booking: Booking, who: Canceller, refund: RecordedRefund | null) {
  metrics.bookingsCancelled.inc({ by: who.by });
  logEvent("booking cancelled", { bookingId: booking.id, by: who.by });
  if (refund) {
    logEvent("booking refunded", { bookingId: booking.id, amount: refund.amount });
  }
}

function claimOf(who: Canceller): BookingClaim {
  return who.by === "customer" ? "CANCEL_BY_CUSTOMER" : "CANCEL_BY_STUDIO";
}

function quoteFor(
  reader: Pick<DB, "select">,
  booking: Booking,
  who: Canceller,
  now: number,
  feePercent: number,
): RefundQuote {
  return who.by === "customer"
    ? cancellationQuote(reader, booking, now, feePercent)
    : studioRefundQuote(paidFor(reader, booking.id));
}

/** The customer confirmed a refund: a different one (the 24-hour line crossed) is refused. */
function checkShownRefund(who: Canceller, quote: RefundQuote) {
  if (who.by !== "customer" || who.expectedRefund == null) return;
  if (who.expectedRefund === quote.refund) return;
  throw new RefundChangedRefusal(
    `The refund is now ${formatDollars(quote.refund)}, not ${formatDollars(who.expectedRefund)}: please review it and confirm again.`,
    quote,
  );
}

/** Closed so it cannot be paid after the cancellation; one paid meanwhile is refunded. */
async function closeCheckoutFirst(
  booking: Booking,
  who: Canceller,
  now: number,
  settings: CancellationSettings,
): Promise<RefundQuote> {
  const checkoutId = openCheckoutOf(db, booking);
  if (checkoutId) {
    const session = await callProvider(
      `Stripe: could not close Checkout Session ${checkoutId}`,
      CANCEL_UNAVAILABLE_MESSAGE,
      () => settings.provider.closeCheckout(checkoutId),
    );
    if (session.status === "complete") recordCheckoutSession(session);
  }
  const quote = quoteFor(db, booking, who, now, settings.feePercent);
  checkShownRefund(who, quote);
  return quote;
}

async function makeRefund(
  bookingId: number,
  amount: number,
  settings: CancellationSettings,
): Promise<RecordedRefund> {
  const charge = latestCharge(bookingId);
  if (!charge?.transactionId) throw new Error(`Booking ${bookingId} is paid but has no charge`);
  // A row paid with other sessions of its order names the one charge with its booking after it.
  const paymentTransactionId = providerCharge(charge.transactionId);
  const context = `Stripe: could not refund booking ${bookingId}`;
  try {
    // One refund per booking at the provider: an earlier attempt that refunded but was not
    // recorded is found and returned, never made a second time.
    const made = await settings.provider.refund({
      bookingId,
      paymentTransactionId,
      amount,
      idempotencyKey: refundKey(bookingId),
    });
    return { ...made, of: charge.transactionId };
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    logError(context, error);
    if (!error.retryable) throw new PaymentServiceError(CANCEL_UNAVAILABLE_MESSAGE);
  }
  // The call may have failed after the provider made the refund (a timeout): ask before
  // saying nothing happened, or the money would be back with no record of it. When it cannot
  // be asked either, the booking is left as it was: the next cancellation finds a refund made
  // meanwhile by its metadata (the provider's `refund` returns it) instead of making another.
  let found: MadeRefund | null;
  try {
    found = await settings.provider.findRefund(paymentTransactionId, bookingId);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    logError(`${context}; whether it was made is unknown until it is asked for again`, error);
    found = null;
  }
  if (found) return { ...found, of: charge.transactionId };
  throw new PaymentServiceError(CANCEL_UNAVAILABLE_MESSAGE);
}

/** Releases a claim after a failure; when even that fails, the sweeper releases it later. */
function giveUp(token: ClaimToken, cause: unknown) {
  try {
    writeTransaction((tx) => releaseClaim(tx, token));
  } catch (error) {
    logError(`Booking ${token.bookingId}: claim not released after ${String(cause)}`, error);
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

/** A claim lost to the sweeper (a slow provider call) is still recorded if money went back. */
function recordClaimed(
  tx: Tx,
  token: ClaimToken,
  who: Canceller,
  quote: RefundQuote,
  refund: RecordedRefund | null,
  now: number,
): Booking {
  const current = getBooking(tx, token.bookingId);
  if (!current) throw new Refusal("not-found", "Booking not found");
  if (current.status === "CANCELLED") {
    // Only a lost claim gets here: someone cancelled after the sweeper released it.
    if (refund) writeRefund(tx, current, refund, now);
    if (holdsClaim(current, token)) releaseClaim(tx, token);
    return current;
  }
  if (!holdsClaim(current, token)) {
    const problem = refund
      ? current.claim === null
        ? null
        : `Booking ${current.id}: refund ${refund.refundId} made, but another action holds it`
      : who.by === "customer"
        ? cancelProblem(tx, current, now)
        : studioCancelProblem(tx, current);
    if (problem && refund) throw new Error(problem);
    if (problem) throw new Refusal("not-cancellable", problem);
  }
  return writeCancelled(tx, current, who, quote, refund, now);
}

function writeCancelled(
  tx: Tx,
  current: Booking,
  who: Canceller | { by: "customer" | "studio"; actorUserId: number | null; swept: true },
  quote: RefundQuote,
  refund: RecordedRefund | null,
  now: number,
): Booking {
  const written = writeCancellation(tx, current, {
    reason: who.by === "customer" ? CANCELLED_BY_CUSTOMER : CANCELLED_BY_STUDIO,
    actorUserId: who.actorUserId,
    note: historyNote(who, quote),
    quote,
    refund,
    now,
  });
  if (!written) throw new Error(`Booking ${current.id} changed during its cancellation`);
  const { booking: updated, creditNote } = written;
  const attachments = [
    // A CANCELLED event with the same UID takes the session out of the customer's calendar.
    sessionCalendarAttachment(updated, env.APP_URL, now),
    // A refund's credit note, issued in this transaction (docs/product.md "Receipts").
    ...(creditNote ? [receiptAttachment(creditNote.details as ReceiptDetails)] : []),
  ];
  if ("collect" in who && who.collect) {
    who.collect.push({ booking: updated, quote, attachments });
    return updated;
  }
  enqueueEmail(tx, {
    kind: "booking-cancelled",
    to: accountEmail(tx, updated.userId),
    bookingId: updated.id,
    ...bookingCancelledEmail({
      booking: updated,
      quote,
      by: who.by,
      creditNoteNumber: (creditNote?.details as ReceiptDetails | undefined)?.number,
    }),
    attachments,
  });
  return updated;
}

function historyNote(
  who: Canceller | { by: "customer" | "studio"; swept: true },
  quote: RefundQuote,
): string {
  const swept =
    "swept" in who ? "Finished by the claim sweeper after the request was cut off" : null;
  const note = "note" in who ? who.note : null;
  if (who.by === "studio") {
    const money =
      quote.kind === "unpaid"
        ? "nothing was paid"
        : `refunded ${formatDollars(quote.refund)} in full`;
    return [`${CANCELLED_BY_STUDIO}; ${money}`, note, swept].filter(Boolean).join(". ");
  }
  const text =
    quote.kind === "unpaid"
      ? `${CANCELLED_BY_CUSTOMER}; nothing was paid`
      : quote.kind === "full"
        ? `${CANCELLED_BY_CUSTOMER}; refunded ${formatDollars(quote.refund)} in full`
        : `${CANCELLED_BY_CUSTOMER} within 24 hours; refunded ${formatDollars(quote.refund)}, kept a ${formatDollars(quote.fee)} fee`;
  return [text, swept].filter(Boolean).join(". ");
}

/**
 * A claim past its lease: cancelled as asked if the provider made the refund, else released
 * with the booking as it was; a provider failure is thrown for the next sweep.
 */
export async function finishAbandonedCancellation(
  booking: Booking,
  token: ClaimToken,
  now: number,
  settings: CancellationSettings,
): Promise<"finished" | "released"> {
  const charge = paidFor(db, booking.id) > 0 ? latestCharge(booking.id) : undefined;
  const paymentTransactionId = charge?.transactionId;
  // Asks, never refunds: a failure is thrown as it is, for the sweeper to log and retry.
  const made = paymentTransactionId
    ? await settings.provider.findRefund(providerCharge(paymentTransactionId), booking.id)
    : null;
  return writeTransaction((tx) => {
    const current = getBooking(tx, booking.id);
    if (!current || !holdsClaim(current, token)) return "released" as const;
    if (!made || !paymentTransactionId || current.status === "CANCELLED") {
      releaseClaim(tx, token);
      return "released" as const;
    }
    const paid = paidFor(tx, current.id);
    const fee = Math.max(0, paid - made.amount);
    const quote: RefundQuote =
      fee === 0
        ? { kind: "full", paid, fee: 0, refund: made.amount }
        : { kind: "late", paid, fee, refund: made.amount };
    const by = token.claim === "CANCEL_BY_STUDIO" ? "studio" : "customer";
    writeCancelled(
      tx,
      current,
      { by, actorUserId: current.claimedBy, swept: true },
      quote,
      { ...made, of: paymentTransactionId },
      now,
    );
    return "finished" as const;
  });
}

/**
 * "This and all later" (docs/product.md "Weekly series"): all checked first, then each session
 * cancelled in turn (never two provider calls at once) and one e-mail; a provider failure part
 * way keeps those already cancelled and reports them.
 */
export const NOT_A_SERIES_MESSAGE = "This session is not part of a series: cancel it on its own.";

export type FollowingPlan = {
  sessions: { booking: Booking; quote: RefundQuote }[];
  refund: number;
};

export function planCancelFollowing(
  booking: Booking,
  now: number,
  feePercent: number,
  by: "customer" | "studio" = "customer",
): { plan: FollowingPlan } | { problem: string } {
  if (booking.orderId === null || !seriesOfBooking(booking)) {
    return { problem: NOT_A_SERIES_MESSAGE };
  }
  const problemOf = (session: Booking) =>
    by === "customer" ? cancelProblem(db, session, now) : studioCancelProblem(db, session);
  const first = problemOf(booking);
  if (first) return { problem: first };
  const sessions = followingSessions(booking, listOrderSessions(db, booking.orderId));
  const planned: FollowingPlan["sessions"] = [];
  for (const session of sessions) {
    const problem = problemOf(session);
    if (problem) return { problem: `Booking #${session.id}: ${problem}` };
    const quote =
      by === "customer"
        ? cancellationQuote(db, session, now, feePercent)
        : studioRefundQuote(paidFor(db, session.id));
    planned.push({ booking: session, quote });
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

export function cancelOwnFollowing(
  input: { bookingId: number; userId: number; expectedRefund?: number | null },
  now: number,
  settings: CancellationSettings = configuredCancellationSettings(),
): Promise<FollowingResult> {
  return cancelFollowing(
    input.bookingId,
    { by: "customer", actorUserId: input.userId, expectedRefund: input.expectedRefund },
    now,
    settings,
  );
}

export function cancelFollowingForStudio(
  input: { bookingId: number; actorUserId: number; note?: string | null },
  now: number,
  settings: CancellationSettings = configuredCancellationSettings(),
): Promise<FollowingResult> {
  return cancelFollowing(
    input.bookingId,
    { by: "studio", actorUserId: input.actorUserId, note: input.note },
    now,
    settings,
  );
}

async function cancelFollowing(
  bookingId: number,
  who: Canceller,
  now: number,
  settings: CancellationSettings,
): Promise<FollowingResult> {
  const booking = getBooking(db, bookingId);
  if (!booking || (who.by === "customer" && booking.userId !== who.actorUserId)) {
    throw new Refusal("not-found", "Booking not found");
  }
  const planned = planCancelFollowing(booking, now, settings.feePercent, who.by);
  if ("problem" in planned) throw new Refusal("not-cancellable", planned.problem);
  const { plan } = planned;
  const expected = who.by === "customer" ? who.expectedRefund : null;
  if (expected != null && expected !== plan.refund) {
    throw new Refusal(
      "refund-changed",
      `The refund is now ${formatDollars(plan.refund)}, not ${formatDollars(expected)}: please review it and confirm again.`,
    );
  }

  const collect: CancelledSession[] = [];
  const cancelled: FollowingResult["cancelled"] = [];
  let stopped: FollowingResult["stopped"] = null;
  for (const { booking: session } of plan.sessions) {
    try {
      // Each session under its own rule: the shown total was checked above, not per session.
      const one: Canceller =
        who.by === "customer"
          ? { by: "customer", actorUserId: who.actorUserId, collect }
          : { ...who, collect };
      cancelled.push(await cancelBooking(session.id, one, now, settings));
    } catch (error) {
      stopped = { bookingId: session.id, error };
      break;
    }
  }
  // The freed ranges go to the waitlist now (docs/product.md "Waitlist").
  if (cancelled.length > 0) offerFreedRangesNow(now);
  sendOneEmail(cancelled, collect, who.by);
  if (stopped && cancelled.length === 0) throw stopped.error;
  return { cancelled, stopped };
}

function sendOneEmail(
  cancelled: FollowingResult["cancelled"],
  collected: CancelledSession[],
  by: "customer" | "studio",
) {
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
        to: accountEmail(tx, first.booking.userId),
        bookingId: first.booking.id,
        ...seriesCancelledEmail({ cancelled, by }),
        attachments,
      });
    });
  } catch (error) {
    // The cancellations stand; only the e-mail is missing, which staff can see in the log.
    logError(`Series cancellation from booking ${first.booking.id}: e-mail not queued`, error);
  }
}
