import { parseWithZod } from "@conform-to/zod/v4";
import type { BookingFormData, BookingFormReply } from "#app/components/booking/types";
import { DatabaseBusyError, db } from "#app/db.server";
import { BOOKING_LIMITS, earliestBookableDate, SLOT_TAKEN_MESSAGE } from "#app/domain/availability";
import { bookingFormSchema, quoteQuerySchema } from "#app/domain/booking-form";
import { sessionsAsked } from "#app/domain/series-form";
import { lastBookableDate } from "#app/domain/booking-limits";
import { studioDateOf } from "#app/domain/studio-time";
import { COUPON_MESSAGES } from "#app/domain/coupons";
import { couponAppliedMessage, formatDollars } from "#app/domain/pricing";
import { keepAsTyped } from "#app/domain/zod";
import { getAvailability, getActiveRetainer, getOwnBooking } from "#app/models/booking.server";
import { checkCoupon, toCouponSummary } from "#app/models/coupon.server";
import { listServices } from "#app/models/service.server";
import type { PublicUser } from "#app/models/user.server";
import { env } from "#app/env.server";
import { readForm } from "#app/web/form.server";
import {
  takeBookingChange,
  takeCouponLookup,
  tooManyBookingChangesMessage,
  tooManyCouponLookupsMessage,
} from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { BookingError, bookSession } from "#app/workflows/book-session.server";
import { seriesPreviewFor, submitSeries } from "#app/routes/home/series-form.server";
import type { RouterContextProvider } from "react-router";
import { redirectWithError, redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import { WAITLIST_JOIN_INTENT } from "#app/components/booking/waitlist-offer";
import { claimFrom, joinFromBookingForm } from "#app/routes/home/waitlist-form.server";

/**
 * The booking form on the landing page (docs/product.md "Booking section",
 * "Booking submit flow"). Without JavaScript every step is a post to `/?index` that re-renders the
 * form with what was entered: showing the free times of a date, applying or removing a
 * coupon, and booking. With JavaScript the same posts run in place and the times and the
 * price update live.
 */
export function loadBookingForm(user: PublicUser | null, now: number): BookingFormData {
  const earliestDate = earliestBookableDate(now);
  const latestDate = lastBookableDate(studioDateOf(now), env.BOOKING_HORIZON_DAYS);
  const hours = BOOKING_LIMITS.minHours;
  return {
    signedIn: user !== null,
    earliestDate,
    latestDate,
    services: listServices({ activeOnly: true }).map(
      ({ id, name, description, price, duration }) => ({
        id,
        name,
        description,
        price,
        duration,
      }),
    ),
    availability: {
      date: earliestDate,
      hours,
      times: getAvailability(earliestDate, hours, now, env.BUFFER_MINUTES),
    },
    retainer: user ? getActiveRetainer(db, user.id, now) : null,
    prefill: user
      ? {
          firstName: user.firstName,
          lastName: user.lastName,
          businessName: user.businessName ?? "",
          phoneNumber: user.phoneNumber,
          email: user.email,
          stakeholder: user.isStakeholder ? "yes" : "no",
        }
      : null,
  };
}

/**
 * The form posts to `/?index#booking-form` so that a re-render without JavaScript opens at the
 * form. A redirect without a fragment would inherit that one, so redirects name their own.
 */
const PAGE_TOP = "#main";

const BOOKING_ERROR = {
  type: "error",
  message: "Booking Error",
  description: "There was a problem processing your form. Please try again.",
} as const;

function availabilityFor(formData: FormData, now: number) {
  const query = quoteQuerySchema.safeParse({
    date: formData.get("recordingDate"),
    hours: formData.get("hoursNeeded") ?? String(BOOKING_LIMITS.minHours),
  });
  if (!query.success) return null;
  const { date, hours } = query.data;
  return {
    date,
    hours,
    times: getAvailability(date, hours, now, env.BUFFER_MINUTES),
  };
}

/** The code a post carries as applied (the hidden field after an Apply), if any. */
function carriedCouponCode(formData: FormData): string | null {
  const code = formData.get("couponCode");
  return typeof code === "string" && code.trim() !== "" ? code : null;
}

/**
 * The applied coupon, checked again: it may have been used up meanwhile. The check is a lookup
 * like Apply, counted by the caller, so it gives terms only within the lookup limit.
 */
function appliedCoupon(code: string | null, now: number) {
  if (code === null) return null;
  const check = checkCoupon(code, now);
  return check.isValid ? toCouponSummary(check.coupon) : null;
}

export async function bookingFormAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  user: PublicUser | null,
) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const now = Date.now();
  const availability = availabilityFor(formData, now);
  // Any post keeps what was entered; only "book" holds it to every rule.
  const keep = parseWithZod(formData, { schema: keepAsTyped }).reply();
  const toast = replyWithToast.bind(null, context, formData);
  // No reply carries a coupon's terms unless this post passed the lookup limit (below).
  const reply = (extra: Partial<BookingFormReply>): BookingFormReply => ({
    intent: typeof intent === "string" ? intent : null,
    result: keep,
    coupon: null,
    availability,
    seriesPreview: seriesPreviewFor(formData, now),
    ...extra,
  });
  const clientAddress = context.get(clientAddressContext);
  /** One coupon lookup from the address's and the account's budgets; the 429 past them. */
  const lookupRefusal = async () => {
    const retryAfter = await takeCouponLookup(clientAddress, user?.id ?? null);
    if (retryAfter === null) return null;
    const message = tooManyCouponLookupsMessage(retryAfter);
    return toast(
      reply({
        result: parseWithZod(formData, { schema: keepAsTyped }).reply({
          fieldErrors: { couponEntry: [message] },
        }),
      }),
      { type: "error", message: "Too Many Attempts", description: message },
      { status: 429, headers: { "Retry-After": String(retryAfter) } },
    );
  };
  const carried = carriedCouponCode(formData);

  if (intent === "check") {
    if (carried === null) return reply({});
    const refused = await lookupRefusal();
    if (refused) return refused;
    return reply({ coupon: appliedCoupon(carried, now) });
  }

  // "Check dates" without JavaScript: the reply carries the series' preview (above).
  if (intent === "check-dates") return reply({});

  if (intent === "remove-coupon") {
    return toast(reply({ coupon: null }), {
      type: "success",
      message: "Coupon Removed",
      description: "The promotional code was removed from your booking.",
    });
  }

  // Visitors may check a code too: they may use the whole form but submit it (docs/product.md
  // "Coupons"); the lookup limit per address is what stops probing.
  if (intent === "apply-coupon") {
    const entered = formData.get("couponEntry");
    const code = typeof entered === "string" ? entered.trim() : "";
    if (code === "") {
      return toast(
        reply({
          coupon: null,
          result: parseWithZod(formData, { schema: keepAsTyped }).reply({
            fieldErrors: { couponEntry: [COUPON_MESSAGES.required] },
          }),
        }),
        { type: "error", message: "Coupon Required", description: COUPON_MESSAGES.required },
        { status: 400 },
      );
    }
    const refused = await lookupRefusal();
    if (refused) return refused;
    const check = checkCoupon(code, now);
    if (!check.isValid) {
      return toast(
        reply({ coupon: null }),
        { type: "error", message: "Invalid Coupon", description: check.message },
        { status: 400 },
      );
    }
    return toast(reply({ coupon: toCouponSummary(check.coupon) }), {
      type: "success",
      message: "Coupon Applied!",
      description: couponAppliedMessage(check.coupon),
    });
  }

  if (intent === WAITLIST_JOIN_INTENT) {
    if (!user) throw await authenticationRequired();
    return joinFromBookingForm(formData, user, now, (message, description, status) =>
      toast(reply({}), { type: "error", message, description }, { status }),
    );
  }

  if (intent !== "book") return toast(reply({}), BOOKING_ERROR, { status: 400 });

  if (!user) throw await authenticationRequired();
  /** A refused booking keeps the applied coupon only through a lookup that passes the limit. */
  const keptCoupon = async () => {
    if (carried === null) return null;
    const retryAfter = await takeCouponLookup(clientAddress, user.id);
    return retryAfter === null ? appliedCoupon(carried, now) : null;
  };
  const submission = parseWithZod(formData, { schema: bookingFormSchema(now) });
  if (submission.status !== "success") {
    return toast(reply({ result: submission.reply(), coupon: await keptCoupon() }), BOOKING_ERROR, {
      status: 400,
    });
  }
  // A booking is a calendar write and a mail: limited per account and per address, in
  // sessions (a series takes one per session it books).
  const retryAfter = await takeBookingChange(
    clientAddress,
    user.id,
    sessionsAsked(submission.value.repeat),
  );
  if (retryAfter !== null) {
    const message = tooManyBookingChangesMessage(retryAfter);
    return toast(
      reply({
        result: parseWithZod(formData, { schema: keepAsTyped }).reply({ formErrors: [message] }),
        coupon: await keptCoupon(),
      }),
      { type: "error", message: "Too Many Bookings", description: message },
      { status: 429, headers: { "Retry-After": String(retryAfter) } },
    );
  }
  if (submission.value.repeat) {
    return submitSeries(user, submission.value, submission.value.repeat, now, {
      refuse: async (message, title, status, holds) =>
        toast(
          reply({
            // The unpaid-holds notice says it with its links; anything else is the form's error.
            result: parseWithZod(formData, { schema: keepAsTyped }).reply({
              formErrors: holds ? [] : [message],
            }),
            coupon: await keptCoupon(),
            ...(holds ? { unpaidHolds: { message, holds } } : {}),
          }),
          { type: "error", message: title, description: message },
          { status },
        ),
    });
  }
  try {
    const claim = claimFrom(formData, user, submission.value);
    const booking = bookSession(user, submission.value, now, undefined, claim);
    if (booking.status === "CONFIRMED") {
      return redirectWithSuccess(`/?booked=${booking.id}${PAGE_TOP}`, {
        message: "Booking Confirmed!",
        description: "Your free session is booked and confirmed.",
      });
    }
    return redirectWithSuccess(`/checkout/${booking.id}${PAGE_TOP}`, {
      message: "Booking Submitted!",
      description:
        booking.discountAmount > 0
          ? `Your discount of ${formatDollars(booking.discountAmount)} is applied. Complete your payment to secure your session.`
          : "Complete your payment to secure your session.",
    });
  } catch (error) {
    // Another connection held the database past busy_timeout: nothing was written, so the
    // customer keeps the filled-in form and is asked to send it again.
    if (error instanceof DatabaseBusyError) {
      return toast(reply({ coupon: await keptCoupon() }), BOOKING_ERROR, { status: 503 });
    }
    if (!(error instanceof BookingError)) throw error;
    if (error.kind === "unpaid-holds") {
      return toast(
        reply({ unpaidHolds: { message: error.message, holds: error.openHolds } }),
        { type: "error", message: "Unpaid Bookings", description: error.message },
        { status: 409 },
      );
    }
    if (error.kind === "horizon") {
      return toast(
        reply({}),
        { type: "error", message: "Date Too Far Ahead", description: error.message },
        { status: 400 },
      );
    }
    const fresh = availabilityFor(formData, now);
    if (error.kind === "slot") {
      return toast(
        reply({ availability: fresh, coupon: await keptCoupon() }),
        { type: "error", message: "Time Slot Unavailable", description: SLOT_TAKEN_MESSAGE },
        { status: 409 },
      );
    }
    if (error.kind === "coupon") {
      return toast(
        reply({ coupon: null }),
        { type: "error", message: "Invalid Coupon", description: error.message },
        { status: 400 },
      );
    }
    return toast(
      reply({ coupon: await keptCoupon() }),
      { type: "error", message: "Booking Failed", description: error.message },
      { status: 400 },
    );
  }
}

function authenticationRequired() {
  return redirectWithError(`/auth${PAGE_TOP}`, {
    message: "Authentication Required",
    description: "Please sign in to complete your booking",
  });
}

/** The booked dialog after a free booking: only for its owner, while it stands confirmed. */
export function bookedDialog(url: URL, user: PublicUser | null): { bookingId: number } | null {
  const id = Number(url.searchParams.get("booked"));
  if (!user || !Number.isSafeInteger(id) || id <= 0) return null;
  const booking = getOwnBooking(id, user.id);
  return booking?.status === "CONFIRMED" ? { bookingId: booking.id } : null;
}
