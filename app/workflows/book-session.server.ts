import type { Booking } from "#db/schema";
import { writeTransaction } from "#app/db.server";
import { env } from "#app/env.server";
import { busyWindowFor, SLOT_TAKEN_MESSAGE, startProblem } from "#app/domain/availability";
import {
  horizonProblem,
  lastBookableDate,
  tooManyUnpaidHolds,
  tooManyUnpaidSessions,
  unpaidHoldsMessage,
  unpaidSessionsMessage,
} from "#app/domain/booking-limits";
import type { BookingRequest } from "#app/domain/booking-form";
import { Refusal, UnpaidHoldsRefusal } from "#app/domain/refusal";
import { couponProblem, couponRefusalMessage } from "#app/domain/coupons";
import {
  type CouponTerms,
  isStakeholderAnswer,
  type Price,
  priceBooking,
  RETAINER_PACKAGE,
} from "#app/domain/pricing";
import { retainerWindow } from "#app/domain/retainer";
import { studioDateOf, studioSession } from "#app/domain/studio-time";
import { sameRange, WAITLIST_MESSAGES } from "#app/domain/waitlist";
import { bookingReceivedEmail, seriesReceivedEmail } from "#app/emails/templates.server";
import type { SeriesRepeat } from "#app/domain/series-repeat";
import {
  drawRetainerHours,
  insertBooking,
  countUnpaidSessions,
  type NewBooking,
  openUnpaidHolds,
  type RetainerDraw,
  readBusyRanges,
  recordBookingHistory,
  type Tx,
} from "#app/models/booking.server";
import { couponTerms, findCoupon, reserveCouponUse } from "#app/models/coupon.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { accountEmail } from "#app/models/user.server";
import { getActiveServices } from "#app/models/service.server";
import { insertOrder } from "#app/models/order.server";
import { countLiveOffers, liveOfferOf, markClaimed } from "#app/models/waitlist.server";
import { expireHolds } from "#app/workflows/expire-holds.server";
import type { PublicUser } from "#app/models/user.server";
import { logEvent } from "#app/log.server";
import { metrics } from "#app/metrics.server";

/**
 * The checks, the writes and the e-mail are one IMMEDIATE transaction with no await inside, so
 * the check and the insert see the same database even with several server processes.
 */

export type BookingSettings = {
  holdMinutes: number;
  bufferMinutes: number;
  appUrl: string;
  /** MAX_UNPAID_HOLDS; absent, a test's settings leave the cap off. */
  maxUnpaidHolds?: number;
  /** MAX_UNPAID_SESSIONS; absent, a test's settings leave the cap off. */
  maxUnpaidSessions?: number;
  /** BOOKING_HORIZON_DAYS; absent, a test's settings leave the horizon off. */
  horizonDays?: number;
};

export function configuredBookingSettings(): BookingSettings {
  return {
    holdMinutes: env.HOLD_MINUTES,
    bufferMinutes: env.BUFFER_MINUTES,
    appUrl: env.APP_URL,
    maxUnpaidHolds: env.MAX_UNPAID_HOLDS,
    maxUnpaidSessions: env.MAX_UNPAID_SESSIONS,
    horizonDays: env.BOOKING_HORIZON_DAYS,
  };
}

const NO_DRAW: RetainerDraw = { retainerBookingId: null, drawn: 0 };

// Each rule runs inside the caller's IMMEDIATE transaction and throws a Refusal: nothing written.

/** The booking horizon (BOOKING_HORIZON_DAYS): the last studio date that may be booked. */
export function lastDateFor(now: number, settings: BookingSettings): string | null {
  return settings.horizonDays === undefined
    ? null
    : lastBookableDate(studioDateOf(now), settings.horizonDays);
}

export function checkHorizon(date: string, now: number, settings: BookingSettings) {
  if (settings.horizonDays === undefined) return;
  const tooFar = horizonProblem(date, studioDateOf(now), settings.horizonDays);
  if (tooFar) throw new Refusal("horizon", tooFar);
}

export function chosenServices(tx: Tx, request: BookingRequest) {
  const chosen = getActiveServices(tx, request.selectedServices);
  if (chosen.length !== request.selectedServices.length) {
    throw new Refusal("service-gone", "One of the selected services is no longer offered.");
  }
  return chosen;
}

export function takeCoupon(tx: Tx, code: string | undefined, now: number) {
  if (!code) return undefined;
  const coupon = findCoupon(tx, code, now);
  const couponError = couponProblem(coupon, studioDateOf(now));
  if (couponError || !coupon) {
    throw new Refusal("coupon-refused", couponRefusalMessage(couponError ?? "notFound"));
  }
  if (!reserveCouponUse(tx, coupon.id)) {
    throw new Refusal("coupon-refused", couponRefusalMessage("usedUp"));
  }
  return coupon;
}

/** A live waitlist offer counts as unpaid (the request may be claiming one of them). */
export function checkHoldRoom(
  tx: Tx,
  userId: number,
  now: number,
  settings: BookingSettings,
  adding: { sessions: number; claimsOffer?: boolean } = { sessions: 1 },
) {
  const { maxUnpaidHolds, maxUnpaidSessions } = settings;
  if (maxUnpaidHolds === undefined && maxUnpaidSessions === undefined) return;
  // Every count inside the IMMEDIATE transaction: a second request waits for this one's commit.
  const open = openUnpaidHolds(tx, userId, now);
  if (maxUnpaidHolds !== undefined && tooManyUnpaidHolds(open.length, maxUnpaidHolds)) {
    throw new UnpaidHoldsRefusal(unpaidHoldsMessage(maxUnpaidHolds), open);
  }
  if (maxUnpaidSessions === undefined) return;
  const held = {
    unpaidSessions: countUnpaidSessions(tx, userId, now),
    liveOffers: countLiveOffers(tx, userId, now),
    adding: adding.sessions,
    claimsOffer: adding.claimsOffer ?? false,
  };
  if (tooManyUnpaidSessions(held, maxUnpaidSessions)) {
    throw new UnpaidHoldsRefusal(unpaidSessionsMessage(held, maxUnpaidSessions), open);
  }
}

export function newBookingRow(input: {
  user: PublicUser;
  request: BookingRequest;
  recordingDate: string;
  slot: { startsAt: number; endsAt: number };
  price: Price;
  /** The coupon whose discount this session carries (the use is its order's). */
  coupon: { id: number; code: string } | null;
  draw: RetainerDraw;
  now: number;
  settings: BookingSettings;
  orderId: number;
}): NewBooking {
  const { request, price, now } = input;
  const status = price.totalCost === 0 ? "CONFIRMED" : "PENDING_PAYMENT";
  const window = request.isRetainer ? retainerWindow(input.recordingDate) : null;
  return {
    userId: input.user.id,
    firstName: request.firstName,
    lastName: request.lastName,
    businessName: request.businessName ?? null,
    phoneNumber: request.phoneNumber,
    email: request.email,
    stakeholder: isStakeholderAnswer(request.stakeholder) ? "yes" : "no",
    recordingDate: input.recordingDate,
    recordingTime: request.recordingTime,
    guestCount: String(request.guestCount),
    hoursNeeded: String(request.hoursNeeded),
    startsAt: input.slot.startsAt,
    endsAt: input.slot.endsAt,
    hourlyRate: price.hourlyRate,
    totalCost: price.totalCost,
    originalCost: price.originalCost,
    couponId: input.coupon?.id ?? null,
    couponCode: input.coupon?.code ?? null,
    discountAmount: price.discountAmount,
    status,
    holdExpiresAt: status === "PENDING_PAYMENT" ? now + input.settings.holdMinutes * 60_000 : null,
    isRetainer: request.isRetainer,
    retainerStartDate: window?.startDate ?? null,
    retainerEndDate: window?.endDate ?? null,
    // The purchase schedules the package's first session, which uses its hours.
    retainerHoursUsed: request.isRetainer ? request.hoursNeeded : 0,
    retainerTotalHours: RETAINER_PACKAGE.hours,
    retainerBookingId: input.draw.retainerBookingId,
    retainerHoursDrawn: input.draw.drawn,
    orderId: input.orderId,
    createdAt: now,
  };
}

export function priceSession(
  request: BookingRequest,
  servicePrices: number[],
  coupon: CouponTerms | null,
  draw: RetainerDraw,
): Price {
  return priceBooking({
    hours: request.hoursNeeded,
    stakeholder: request.stakeholder,
    servicePrices,
    coupon,
    buysRetainer: request.isRetainer,
    retainerHoursDrawn: draw.drawn,
  });
}

export function createBooking(
  tx: Tx,
  row: NewBooking,
  chosen: readonly { id: number; price: number }[],
): Booking {
  const booking = insertBooking(tx, row, chosen);
  recordBookingHistory(tx, {
    bookingId: booking.id,
    actorUserId: booking.userId,
    fromStatus: null,
    toStatus: booking.status,
    note: booking.status === "CONFIRMED" ? "Free booking, confirmed at creation" : "Booked online",
    createdAt: booking.createdAt,
  });
  return booking;
}

export type PlacedSession = {
  recordingDate: string;
  slot: { startsAt: number; endsAt: number };
  price: Price;
  draw: RetainerDraw;
  /** Whether the coupon's discount applies to this session (a fixed amount: the first only). */
  carriesCoupon: boolean;
};

/** A single booking and a weekly series are both placed here (docs/product.md "Orders"). */
export function placeOrder(
  tx: Tx,
  input: {
    user: PublicUser;
    request: BookingRequest;
    repeat: SeriesRepeat | null;
    coupon: { id: number; code: string } | null;
    chosen: readonly { id: number; price: number }[];
    sessions: PlacedSession[];
    now: number;
    settings: BookingSettings;
  },
): Booking[] {
  const { user, request, coupon, now, settings } = input;
  const orderId = insertOrder(tx, {
    userId: user.id,
    repeatEvery: input.repeat,
    occurrences: input.sessions.length,
    couponId: coupon?.id ?? null,
    createdAt: now,
  });
  const bookings = input.sessions.map((session) =>
    createBooking(
      tx,
      newBookingRow({
        user,
        request,
        recordingDate: session.recordingDate,
        slot: session.slot,
        price: session.price,
        coupon: session.carriesCoupon ? coupon : null,
        draw: session.draw,
        now,
        settings,
        orderId,
      }),
      input.chosen,
    ),
  );
  const first = bookings[0] as Booking;
  const holdExpiresAt = bookings.find((booking) => booking.holdExpiresAt !== null)?.holdExpiresAt;
  enqueueEmail(tx, {
    kind: "booking-received",
    to: accountEmail(tx, user.id),
    bookingId: first.id,
    ...(input.repeat === null
      ? bookingReceivedEmail({
          booking: first,
          payUrl: `${settings.appUrl}/checkout/${first.id}`,
          holdExpiresAt: first.holdExpiresAt,
        })
      : seriesReceivedEmail({
          bookings,
          payUrl: `${settings.appUrl}/checkout/series/${orderId}`,
          holdExpiresAt: holdExpiresAt ?? null,
        })),
  });
  return bookings;
}

/** A waitlist offer being claimed (`exceptOfferId`) is not busy for its own customer. */
function checkSlot(
  request: BookingRequest,
  now: number,
  settings: BookingSettings,
  exceptOfferId?: number,
) {
  const busy = readBusyRanges(
    busyWindowFor(request.recordingDate, settings.bufferMinutes),
    now,
    undefined,
    exceptOfferId,
  );
  const problem = startProblem({
    date: request.recordingDate,
    time: request.recordingTime,
    hours: request.hoursNeeded,
    busy,
    now,
    bufferMinutes: settings.bufferMinutes,
  });
  if (problem === "taken") throw new Refusal("slot-taken", SLOT_TAKEN_MESSAGE);
  if (problem !== null) throw new Refusal("start-refused", "This start time cannot be booked.");
}

/** `claim`: the waitlist offer becomes CLAIMED in this transaction (docs/product.md "Waitlist"). */
export function bookSession(
  user: PublicUser,
  request: BookingRequest,
  now: number,
  settings: BookingSettings = configuredBookingSettings(),
  claim?: { waitlistEntryId: number },
): Booking {
  const slot = studioSession(request.recordingDate, request.recordingTime, request.hoursNeeded);

  const booking = writeTransaction((tx) => {
    expireHolds(tx, now);
    checkHorizon(request.recordingDate, now, settings);
    const offer = claim ? liveOfferOf(tx, claim.waitlistEntryId, user.id, now) : undefined;
    if (claim && !offer) throw new Refusal("claim-refused", WAITLIST_MESSAGES.claimGone);
    if (offer && !sameRange(offer, request)) {
      throw new Refusal("claim-refused", WAITLIST_MESSAGES.claimDifferent);
    }
    checkSlot(request, now, settings, offer?.id);
    const chosen = chosenServices(tx, request);
    const coupon = takeCoupon(tx, request.couponCode, now);

    // A retainer purchase pays its own hours; any other session draws from a paid retainer.
    const draw = request.isRetainer
      ? NO_DRAW
      : drawRetainerHours(
          tx,
          { userId: user.id, date: request.recordingDate, hours: request.hoursNeeded },
          now,
        );
    const price = priceSession(
      request,
      chosen.map((service) => service.price),
      coupon ? couponTerms(coupon) : null,
      draw,
    );
    if (price.totalCost > 0) {
      checkHoldRoom(tx, user.id, now, settings, { sessions: 1, claimsOffer: offer !== undefined });
    }

    const [booking] = placeOrder(tx, {
      user,
      request,
      repeat: null,
      coupon: coupon ?? null,
      chosen,
      sessions: [{ recordingDate: request.recordingDate, slot, price, draw, carriesCoupon: true }],
      now,
      settings,
    }) as [Booking];
    if (offer && !markClaimed(tx, offer.id, booking.id, now)) {
      throw new Error(`Waitlist offer ${offer.id} changed during its claim`);
    }
    return booking;
  });
  metrics.bookingsCreated.inc();
  logEvent("booking created", {
    bookingId: booking.id,
    status: booking.status,
    totalCost: booking.totalCost,
  });
  return booking;
}
