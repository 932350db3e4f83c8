import type { Booking } from "#db/schema";
import { writeTransaction } from "#app/db.server";
import { busyWindowFor } from "#app/domain/availability";
import { BOOKING_MESSAGES, type BookingRequest } from "#app/domain/booking-form";
import { Refusal, SeriesConflictsRefusal } from "#app/domain/refusal";

import {
  checkOccurrences,
  couponForSession,
  horizonProblemOf,
  keptDates,
  type OccurrenceCheck,
  SERIES_MESSAGES,
  seriesConflicts,
  seriesDates,
} from "#app/domain/series";
import { isSeriesStart, type SeriesRepeatRequest } from "#app/domain/series-form";
import type { SeriesPreview, SeriesPreviewQuery } from "#app/domain/series-preview";
import { logEvent } from "#app/log.server";
import { metrics } from "#app/metrics.server";
import { drawRetainerHours, readBusyRanges } from "#app/models/booking.server";
import { expireHolds } from "#app/workflows/expire-holds.server";
import { couponTerms } from "#app/models/coupon.server";
import type { PublicUser } from "#app/models/user.server";
import {
  type BookingSettings,
  checkHoldRoom,
  chosenServices,
  configuredBookingSettings,
  lastDateFor,
  placeOrder,
  priceSession,
  takeCoupon,
} from "#app/workflows/book-session.server";

/**
 * A customer books a weekly series (docs/product.md "Weekly series"): every session is checked
 * by the single booking's rules and written, each with the series' id, or none is. One
 * IMMEDIATE transaction with no await inside, as for a single booking
 * (book-session.server.ts), so of two overlapping series at once exactly one is written whole.
 */

export type BookedSeries = { seriesId: number; bookings: Booking[] };

/** The studio dates a request asks for: the series' dates less the ones left out. */
export function requestedDates(request: BookingRequest, repeat: SeriesRepeatRequest): string[] {
  if (!isSeriesStart(request.recordingDate))
    throw new Refusal("series-refused", BOOKING_MESSAGES.date);
  const kept = keptDates(
    seriesDates(request.recordingDate, repeat.every, repeat.count),
    repeat.skip,
  );
  if (kept.problem !== null) throw new Refusal("series-refused", kept.problem);
  return kept.dates;
}

/**
 * The preview of a series as the booking form and GET /api/availability/series show it, read
 * now (outside any write: booking checks again in its transaction).
 */
export function seriesPreview(
  query: SeriesPreviewQuery,
  now: number,
  settings: BookingSettings = configuredBookingSettings(),
): SeriesPreview {
  const checks = previewSeries(
    { recordingDate: query.date, recordingTime: query.time, hoursNeeded: query.hours },
    query,
    now,
    settings,
  );
  return {
    ...query,
    occurrences: checks.map(({ recordingDate, problem, alternatives }) => ({
      recordingDate,
      problem,
      alternatives,
    })),
  };
}

/**
 * Every session of the series as the form's preview shows it, read now (outside any write: the
 * booking checks again in its transaction).
 */
export function previewSeries(
  request: Pick<BookingRequest, "recordingDate" | "recordingTime" | "hoursNeeded">,
  repeat: Pick<SeriesRepeatRequest, "every" | "count">,
  now: number,
  settings: BookingSettings = configuredBookingSettings(),
): OccurrenceCheck[] {
  return occurrenceChecks(
    seriesDates(request.recordingDate, repeat.every, repeat.count),
    request,
    now,
    settings,
  );
}

function occurrenceChecks(
  dates: readonly string[],
  request: Pick<BookingRequest, "recordingTime" | "hoursNeeded">,
  now: number,
  settings: BookingSettings,
): OccurrenceCheck[] {
  return checkOccurrences({
    dates,
    time: request.recordingTime,
    hours: request.hoursNeeded,
    now,
    bufferMinutes: settings.bufferMinutes,
    lastDate: lastDateFor(now, settings),
    busyOn: (date) => readBusyRanges(busyWindowFor(date, settings.bufferMinutes), now),
  });
}

/**
 * Creates the series at the server's price: each session priced as a single booking, the
 * coupon used once (a percentage off each session, a fixed amount off the first), retainer
 * hours drawn in date order. Counts as one hold under MAX_UNPAID_HOLDS and each unpaid session
 * under MAX_UNPAID_SESSIONS. Throws a
 * "series-conflicts" Refusal when any session is taken, a Refusal for any other rule;
 * nothing is written then.
 */
export function bookSeries(
  user: PublicUser,
  request: BookingRequest,
  repeat: SeriesRepeatRequest,
  now: number,
  settings: BookingSettings = configuredBookingSettings(),
): BookedSeries {
  if (request.isRetainer) throw new Refusal("series-refused", SERIES_MESSAGES.retainer);
  const dates = requestedDates(request, repeat);

  const booked = writeTransaction((tx) => {
    expireHolds(tx, now);
    const checks = occurrenceChecks(dates, request, now, settings);
    const lastDate = lastDateFor(now, settings);
    const tooFar = horizonProblemOf(checks, lastDate);
    if (tooFar) throw new Refusal("horizon", tooFar);
    const conflicts = seriesConflicts(checks);
    if (conflicts.length > 0)
      throw new SeriesConflictsRefusal(SERIES_MESSAGES.conflicts, conflicts);

    const chosen = chosenServices(tx, request);
    const coupon = takeCoupon(tx, request.couponCode, now);
    const terms = coupon ? couponTerms(coupon) : null;
    const servicePrices = chosen.map((service) => service.price);

    // In date order, so the earliest sessions take the retainer's hours first.
    const sessions = checks.map((check, index) => {
      const draw = drawRetainerHours(
        tx,
        { userId: user.id, date: check.recordingDate, hours: request.hoursNeeded },
        now,
      );
      const price = priceSession(request, servicePrices, couponForSession(terms, index), draw);
      return { check, index, draw, price };
    });
    // Sessions the retainer covers whole are confirmed: only the others wait for payment.
    const unpaid = sessions.filter((session) => session.price.totalCost > 0).length;
    if (unpaid > 0) checkHoldRoom(tx, user.id, now, settings, { sessions: unpaid });

    const bookings = placeOrder(tx, {
      user,
      request,
      repeat: repeat.every,
      coupon: coupon ?? null,
      chosen,
      sessions: sessions.map(({ check, index, draw, price }) => ({
        recordingDate: check.recordingDate,
        slot: check,
        price,
        draw,
        carriesCoupon: couponForSession(terms, index) !== null,
      })),
      now,
      settings,
    });
    const seriesId = (bookings[0] as Booking).orderId as number;
    return { seriesId, bookings };
  });
  metrics.bookingsCreated.inc(booked.bookings.length);
  logEvent("series booked", {
    seriesId: booked.seriesId,
    bookingIds: booked.bookings.map((booking) => booking.id).join(","),
    totalCost: booked.bookings.reduce((sum, booking) => sum + booking.totalCost, 0),
  });
  return booked;
}
