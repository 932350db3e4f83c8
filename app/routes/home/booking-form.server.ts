import { parseWithZod } from "@conform-to/zod/v4";
import type { BookingFormData, BookingFormReply } from "#app/components/booking/types";
import { DatabaseBusyError } from "#app/db.server";
import { BOOKING_LIMITS, earliestBookableDate } from "#app/domain/availability";
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
import { bookSession } from "#app/workflows/book-session.server";
import { Refusal, type RefusalKind, UnpaidHoldsRefusal } from "#app/domain/refusal";
import { formRefusal } from "#app/web/refusals.server";
import { seriesPreviewFor, submitSeries } from "#app/routes/home/series-form.server";
import type { RouterContextProvider } from "react-router";
import { redirectWithError, redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import { WAITLIST_JOIN_INTENT } from "#app/components/booking/waitlist-offer";
import { claimFrom, joinFromBookingForm } from "#app/routes/home/waitlist-form.server";

/** Without JavaScript every step re-renders the form (docs/product.md "Booking submit flow"). */
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
    retainer: user ? getActiveRetainer(user.id, now) : null,
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

type BookingPost = {
  formData: FormData;
  context: Readonly<RouterContextProvider>;
  user: PublicUser | null;
  now: number;
  carried: string | null;
  /** The form re-rendered with what was entered, and `extra`. */
  reply: (extra: Partial<BookingFormReply>) => BookingFormReply;
};

type Toast = Parameters<typeof replyWithToast>[3];
type FormAnswer = BookingFormReply | Response | ReturnType<typeof replyWithToast<BookingFormReply>>;

function toast(post: BookingPost, reply: BookingFormReply, message: Toast, init?: ResponseInit) {
  return replyWithToast(post.context, post.formData, reply, message, init);
}

function kept(
  post: BookingPost,
  errors?: { fieldErrors?: Record<string, string[]>; formErrors?: string[] },
) {
  return parseWithZod(post.formData, { schema: keepAsTyped }).reply(errors);
}

/** One coupon lookup from the address's and the account's budgets: the seconds to wait past them. */
function takeLookup(post: BookingPost) {
  return takeCouponLookup(post.context.get(clientAddressContext), post.user?.id ?? null);
}

async function lookupRefusal(post: BookingPost) {
  const retryAfter = await takeLookup(post);
  if (retryAfter === null) return null;
  const message = tooManyCouponLookupsMessage(retryAfter);
  return toast(
    post,
    post.reply({ result: kept(post, { fieldErrors: { couponEntry: [message] } }) }),
    { type: "error", message: "Too Many Attempts", description: message },
    { status: 429, headers: { "Retry-After": String(retryAfter) } },
  );
}

/** A refused booking keeps the applied coupon only through a lookup that passes the limit. */
async function keptCoupon(post: BookingPost) {
  if (post.carried === null) return null;
  return (await takeLookup(post)) === null ? appliedCoupon(post.carried, post.now) : null;
}

async function check(post: BookingPost): Promise<FormAnswer> {
  if (post.carried === null) return post.reply({});
  return (
    (await lookupRefusal(post)) ?? post.reply({ coupon: appliedCoupon(post.carried, post.now) })
  );
}

function removeCoupon(post: BookingPost) {
  return toast(post, post.reply({ coupon: null }), {
    type: "success",
    message: "Coupon Removed",
    description: "The promotional code was removed from your booking.",
  });
}

/**
 * Visitors may check a code too: they may use the whole form but submit it (docs/product.md
 * "Coupons"); the lookup limit per address is what stops probing.
 */
async function applyCoupon(post: BookingPost): Promise<FormAnswer> {
  const entered = post.formData.get("couponEntry");
  const code = typeof entered === "string" ? entered.trim() : "";
  if (code === "") {
    return toast(
      post,
      post.reply({
        coupon: null,
        result: kept(post, { fieldErrors: { couponEntry: [COUPON_MESSAGES.required] } }),
      }),
      { type: "error", message: "Coupon Required", description: COUPON_MESSAGES.required },
      { status: 400 },
    );
  }
  const refused = await lookupRefusal(post);
  if (refused) return refused;
  const checked = checkCoupon(code, post.now);
  if (!checked.isValid) {
    return toast(
      post,
      post.reply({ coupon: null }),
      { type: "error", message: "Invalid Coupon", description: checked.message },
      { status: 400 },
    );
  }
  return toast(post, post.reply({ coupon: toCouponSummary(checked.coupon) }), {
    type: "success",
    message: "Coupon Applied!",
    description: couponAppliedMessage(checked.coupon),
  });
}

async function joinWaitlist(post: BookingPost): Promise<FormAnswer> {
  const { user } = post;
  if (!user) throw await authenticationRequired();
  return joinFromBookingForm(post.formData, user, post.now, (message, description, status) =>
    toast(post, post.reply({}), { type: "error", message, description }, { status }),
  );
}

async function book(post: BookingPost): Promise<FormAnswer> {
  const { formData, user, now } = post;
  if (!user) throw await authenticationRequired();
  const submission = parseWithZod(formData, { schema: bookingFormSchema(now) });
  if (submission.status !== "success") {
    return toast(
      post,
      post.reply({ result: submission.reply(), coupon: await keptCoupon(post) }),
      BOOKING_ERROR,
      { status: 400 },
    );
  }
  const { value } = submission;
  // A booking is a calendar write and a mail: limited per account and per address, in
  // sessions (a series takes one per session it books).
  const retryAfter = await takeBookingChange(
    post.context.get(clientAddressContext),
    user.id,
    sessionsAsked(value.repeat),
  );
  if (retryAfter !== null) {
    const message = tooManyBookingChangesMessage(retryAfter);
    return toast(
      post,
      post.reply({ result: kept(post, { formErrors: [message] }), coupon: await keptCoupon(post) }),
      { type: "error", message: "Too Many Bookings", description: message },
      { status: 429, headers: { "Retry-After": String(retryAfter) } },
    );
  }
  try {
    if (value.repeat) return await submitSeries(user, value, value.repeat, now);
    return bookedAnswer(bookSession(user, value, now, undefined, claimFrom(formData, user, value)));
  } catch (error) {
    // Another connection held the database past busy_timeout: nothing was written, so the
    // customer keeps the filled-in form and is asked to send it again.
    if (error instanceof DatabaseBusyError) {
      const result = value.repeat
        ? kept(post, { formErrors: [BOOKING_ERROR.description] })
        : kept(post);
      return toast(post, post.reply({ result, coupon: await keptCoupon(post) }), BOOKING_ERROR, {
        status: 503,
      });
    }
    if (!(error instanceof Refusal)) throw error;
    return refusedBooking(post, error, value.repeat !== undefined);
  }
}

function bookedAnswer(booking: ReturnType<typeof bookSession>) {
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
}

/**
 * A refused booking re-shows the form with the refusal's answer. The unpaid-holds notice says
 * it with its links; a series' form says anything else as its error and keeps its coupon; a
 * single session's form shows the times afresh when its start was refused.
 */
async function refusedBooking(post: BookingPost, refusal: Refusal, series: boolean) {
  const { toast: message, init } = formRefusal(refusal);
  const holds =
    refusal instanceof UnpaidHoldsRefusal
      ? { unpaidHolds: { message: refusal.message, holds: refusal.openHolds } }
      : {};
  if (series) {
    const result = kept(post, { formErrors: "unpaidHolds" in holds ? [] : [refusal.message] });
    return toast(
      post,
      post.reply({ result, coupon: await keptCoupon(post), ...holds }),
      message,
      init,
    );
  }
  const extra = DROPS_COUPON.has(refusal.kind)
    ? { coupon: null }
    : REFRESHES_TIMES.has(refusal.kind)
      ? { availability: availabilityFor(post.formData, post.now), coupon: await keptCoupon(post) }
      : { coupon: await keptCoupon(post) };
  return toast(post, post.reply({ ...extra, ...holds }), message, init);
}

const DROPS_COUPON: ReadonlySet<RefusalKind> = new Set([
  "unpaid-holds",
  "horizon",
  "coupon-refused",
]);
const REFRESHES_TIMES: ReadonlySet<RefusalKind> = new Set(["slot-taken", "start-refused"]);

/** Any post keeps what was entered; only "book" holds it to every rule. */
const INTENTS = new Map<string, (post: BookingPost) => FormAnswer | Promise<FormAnswer>>([
  ["check", check],
  // "Check dates" without JavaScript: the reply carries the series' preview.
  ["check-dates", (post) => post.reply({})],
  ["remove-coupon", removeCoupon],
  ["apply-coupon", applyCoupon],
  [WAITLIST_JOIN_INTENT, joinWaitlist],
  ["book", book],
]);

export async function bookingFormAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  user: PublicUser | null,
) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const now = Date.now();
  const availability = availabilityFor(formData, now);
  const post: BookingPost = {
    formData,
    context,
    user,
    now,
    carried: carriedCouponCode(formData),
    // No reply carries a coupon's terms unless its post passed the lookup limit.
    reply: (extra) => ({
      intent: typeof intent === "string" ? intent : null,
      result: kept(post),
      coupon: null,
      availability,
      seriesPreview: seriesPreviewFor(formData, now),
      ...extra,
    }),
  };
  const handle = typeof intent === "string" ? INTENTS.get(intent) : undefined;
  return handle ? handle(post) : toast(post, post.reply({}), BOOKING_ERROR, { status: 400 });
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
