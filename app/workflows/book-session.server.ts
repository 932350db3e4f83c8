import type { Booking } from "#db/schema";
import { writeTransaction } from "#app/db.server";
import { env } from "#app/env.server";
import { busyWindowFor, SLOT_TAKEN_MESSAGE, startProblem } from "#app/domain/availability";
import {
  horizonProblem,
  type OpenHold,
  tooManyUnpaidHolds,
  unpaidHoldsMessage,
} from "#app/domain/booking-limits";
import type { BookingRequest } from "#app/domain/booking-form";
import { couponProblem, couponRefusalMessage } from "#app/domain/coupons";
import { isStakeholderAnswer, priceBooking, RETAINER_PACKAGE } from "#app/domain/pricing";
import { retainerWindow } from "#app/domain/retainer";
import { studioDateOf, studioSession } from "#app/domain/studio-time";
import { sameRange, WAITLIST_MESSAGES } from "#app/domain/waitlist";
import { bookingReceivedEmail } from "#app/emails/templates.server";
import {
  drawRetainerHours,
  expireHolds,
  insertBooking,
  openUnpaidHolds,
  type RetainerDraw,
  readBusyRanges,
  recordBookingHistory,
} from "#app/models/booking.server";
import { couponTerms, findCoupon, reserveCouponUse } from "#app/models/coupon.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { accountEmail } from "#app/models/user.server";
import { getActiveServices } from "#app/models/service.server";
import { liveOfferOf, markClaimed } from "#app/models/waitlist.server";
import type { PublicUser } from "#app/models/user.server";
import { logEvent } from "#app/log.server";
import { metrics } from "#app/metrics.server";

/**
 * A customer books a session (the booking form and POST /api/bookings) at the server's price.
 * The slot check, the coupon's use, the retainer draw, the rows and the booking-received e-mail
 * are one IMMEDIATE transaction with no await inside, so the check and the insert see the same
 * database even with several server processes on one file (SQLite lets one writer in at a time).
 */

export type BookingSettings = {
  holdMinutes: number;
  bufferMinutes: number;
  /** Base URL for links in e-mails, e.g. https://studio.example */
  appUrl: string;
  /** MAX_UNPAID_HOLDS; absent, a test's settings leave the cap off. */
  maxUnpaidHolds?: number;
  /** BOOKING_HORIZON_DAYS; absent, a test's settings leave the horizon off. */
  horizonDays?: number;
};

/** The configured rules: what the site uses unless a test passes its own. */
export function configuredBookingSettings(): BookingSettings {
  return {
    holdMinutes: env.HOLD_MINUTES,
    bufferMinutes: env.BUFFER_MINUTES,
    appUrl: env.APP_URL,
    maxUnpaidHolds: env.MAX_UNPAID_HOLDS,
    horizonDays: env.BOOKING_HORIZON_DAYS,
  };
}

export class BookingError extends Error {
  constructor(
    readonly kind:
      | "slot"
      | "coupon"
      | "service"
      | "not-found"
      | "horizon"
      | "unpaid-holds"
      | "waitlist",
    message: string,
    /** For "unpaid-holds": the customer's open unpaid bookings, to pay or cancel. */
    readonly openHolds: OpenHold[] = [],
  ) {
    super(message);
    this.name = "BookingError";
  }
}

const NO_DRAW: RetainerDraw = { retainerBookingId: null, drawn: 0 };

/**
 * Creates a booking at the server's price. Throws a BookingError when the slot is taken, the
 * coupon cannot be used or a service is not offered; nothing is written then. `claim` books
 * the customer's waitlist offer (docs/product.md "Waitlist"): its own hold is not busy for
 * them, and it becomes CLAIMED with the booking in the same transaction.
 */
export function bookSession(
  user: PublicUser,
  request: BookingRequest,
  now: number,
  settings: BookingSettings = configuredBookingSettings(),
  claim?: { waitlistEntryId: number },
): Booking {
  const hours = request.hoursNeeded;
  const slot = studioSession(request.recordingDate, request.recordingTime, hours);

  const booking = writeTransaction((tx) => {
    expireHolds(now, tx);

    if (settings.horizonDays !== undefined) {
      const tooFar = horizonProblem(request.recordingDate, studioDateOf(now), settings.horizonDays);
      if (tooFar) throw new BookingError("horizon", tooFar);
    }

    const offer = claim ? liveOfferOf(tx, claim.waitlistEntryId, user.id, now) : undefined;
    if (claim && !offer) throw new BookingError("waitlist", WAITLIST_MESSAGES.claimGone);
    if (offer && !sameRange(offer, request)) {
      throw new BookingError("waitlist", WAITLIST_MESSAGES.claimDifferent);
    }
    const busy = readBusyRanges(
      busyWindowFor(request.recordingDate, settings.bufferMinutes),
      now,
      undefined,
      offer?.id,
    );
    const problem = startProblem({
      date: request.recordingDate,
      time: request.recordingTime,
      hours,
      busy,
      now,
      bufferMinutes: settings.bufferMinutes,
    });
    if (problem === "taken") throw new BookingError("slot", SLOT_TAKEN_MESSAGE);
    if (problem !== null) throw new BookingError("slot", "This start time cannot be booked.");

    const chosen = getActiveServices(request.selectedServices, tx);
    if (chosen.length !== request.selectedServices.length) {
      throw new BookingError("service", "One of the selected services is no longer offered.");
    }

    const coupon = request.couponCode ? findCoupon(request.couponCode, tx) : undefined;
    if (request.couponCode) {
      const couponError = couponProblem(coupon, studioDateOf(now));
      if (couponError || !coupon) {
        throw new BookingError("coupon", couponRefusalMessage(couponError ?? "notFound"));
      }
      if (!reserveCouponUse(tx, coupon.id)) {
        throw new BookingError("coupon", couponRefusalMessage("usedUp"));
      }
    }

    // A retainer purchase pays its own hours; any other session draws from a paid retainer.
    const draw = request.isRetainer
      ? NO_DRAW
      : drawRetainerHours(tx, { userId: user.id, date: request.recordingDate, hours }, now);

    const price = priceBooking({
      hours,
      stakeholder: request.stakeholder,
      servicePrices: chosen.map((service) => service.price),
      coupon: coupon ? couponTerms(coupon) : null,
      buysRetainer: request.isRetainer,
      retainerHoursDrawn: draw.drawn,
    });
    const status = price.totalCost === 0 ? "CONFIRMED" : "PENDING_PAYMENT";
    if (status === "PENDING_PAYMENT" && settings.maxUnpaidHolds !== undefined) {
      // Inside the IMMEDIATE transaction: a second request waits for this one's commit.
      const open = openUnpaidHolds(tx, user.id, now);
      if (tooManyUnpaidHolds(open.length, settings.maxUnpaidHolds)) {
        throw new BookingError("unpaid-holds", unpaidHoldsMessage(settings.maxUnpaidHolds), open);
      }
    }
    const window = request.isRetainer ? retainerWindow(request.recordingDate) : null;

    const booking = insertBooking(
      tx,
      {
        userId: user.id,
        firstName: request.firstName,
        lastName: request.lastName,
        businessName: request.businessName ?? null,
        phoneNumber: request.phoneNumber,
        email: request.email,
        stakeholder: isStakeholderAnswer(request.stakeholder) ? "yes" : "no",
        recordingDate: request.recordingDate,
        recordingTime: request.recordingTime,
        guestCount: String(request.guestCount),
        hoursNeeded: String(hours),
        startsAt: slot.startsAt,
        endsAt: slot.endsAt,
        hourlyRate: price.hourlyRate,
        totalCost: price.totalCost,
        originalCost: price.originalCost,
        couponId: coupon?.id ?? null,
        couponCode: coupon?.code ?? null,
        discountAmount: price.discountAmount,
        status,
        holdExpiresAt: status === "PENDING_PAYMENT" ? now + settings.holdMinutes * 60_000 : null,
        isRetainer: request.isRetainer,
        retainerStartDate: window?.startDate ?? null,
        retainerEndDate: window?.endDate ?? null,
        // The purchase schedules the package's first session, which uses its hours.
        retainerHoursUsed: request.isRetainer ? hours : 0,
        retainerTotalHours: RETAINER_PACKAGE.hours,
        retainerBookingId: draw.retainerBookingId,
        retainerHoursDrawn: draw.drawn,
        createdAt: now,
      },
      chosen,
    );
    if (offer && !markClaimed(tx, offer.id, booking.id, now)) {
      throw new Error(`Waitlist offer ${offer.id} changed during its claim`);
    }
    recordBookingHistory(tx, {
      bookingId: booking.id,
      actorUserId: user.id,
      fromStatus: null,
      toStatus: status,
      note: status === "CONFIRMED" ? "Free booking, confirmed at creation" : "Booked online",
      createdAt: now,
    });
    enqueueEmail(tx, {
      kind: "booking-received",
      to: accountEmail(booking.userId, tx),
      bookingId: booking.id,
      ...bookingReceivedEmail({
        booking,
        payUrl: `${settings.appUrl}/checkout/${booking.id}`,
        holdExpiresAt: booking.holdExpiresAt,
      }),
    });
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
