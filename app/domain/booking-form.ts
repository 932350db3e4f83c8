import { profileFields } from "#app/domain/account";
import {
  ADVANCE_NOTICE_MESSAGE,
  BOOKING_LIMITS,
  START_TIMES,
  meetsAdvanceNotice,
} from "#app/domain/availability";
import { seriesRepeatSchema } from "#app/domain/series-form";
import { WAITLIST_MESSAGES } from "#app/domain/waitlist";
import { isStudioWallTime, studioInstant } from "#app/domain/studio-time";
import { readNow, type SchemaNow, z } from "#app/domain/zod";

/**
 * The booking form (docs/product.md "Data" and "Validation"), one schema for the server's parse,
 * the browser's checks and the JSON API. Messages quoted in docs/product.md "Validation" are used
 * verbatim. The clock is a parameter because the 48-hour rule depends on it.
 */
export const BOOKING_MESSAGES = {
  date: "Please select a date",
  time: "Please select a time",
  guests: "Please select number of guests",
  hours: "Please select duration",
  stakeholder: "Please answer yes or no",
  skippedTime:
    "This time does not exist on that day because the clocks change. Please select a different time.",
  services: "Please choose services from the list",
  userId: "You can only book for your own account",
} as const;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDate(value: string): boolean {
  // 9999-12-31 parses, but the day after it (which availability reads) is not yyyy-MM-dd.
  if (!DATE_PATTERN.test(value) || value >= "9999-12-31") return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** A select's value as a whole number in range, whether it comes as text or as a number. */
function choice(min: number, max: number, message: string) {
  return z.preprocess(
    (value) => (typeof value === "number" ? String(value) : value),
    z
      .string({ error: message })
      .regex(/^\d+$/, message)
      .transform(Number)
      // Digits only, but enough of them read as Infinity, which is not a number to zod.
      .pipe(z.number({ error: message }).int(message).min(min, message).max(max, message)),
  );
}

const checkbox = z.preprocess(
  (value) => value === true || value === "true" || value === "on",
  z.boolean(),
);

/** Checkbox groups post one value, several, or none. */
const serviceIds = z.preprocess(
  (value) => (value === undefined || value === null || value === "" ? [] : [value].flat()),
  z
    .array(
      z.coerce
        .number({ error: BOOKING_MESSAGES.services })
        .int(BOOKING_MESSAGES.services)
        .positive(BOOKING_MESSAGES.services),
      { error: BOOKING_MESSAGES.services },
    )
    .max(50, BOOKING_MESSAGES.services)
    .transform((ids) => [...new Set(ids)]),
);

/** COUPON_MESSAGES.notFound, written out: coupons.ts brings date-fns into this form's chunk. */
const COUPON_NOT_FOUND = "This coupon is invalid or has expired.";

const optionalCode = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z.string({ error: COUPON_NOT_FOUND }).trim().max(50, COUPON_NOT_FOUND).optional(),
);

export function bookingFields() {
  const { isStakeholder: _profileOnly, ...contact } = profileFields;
  return {
    ...contact,
    // 'yes' in any case means the stakeholder rate (docs/product.md "Data").
    stakeholder: z.preprocess(
      (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
      z.enum(["yes", "no"], { error: BOOKING_MESSAGES.stakeholder }),
    ),
    recordingDate: z
      .string({ error: BOOKING_MESSAGES.date })
      .trim()
      .refine(isCalendarDate, BOOKING_MESSAGES.date),
    recordingTime: z
      .string({ error: BOOKING_MESSAGES.time })
      .refine((time) => START_TIMES.includes(time), BOOKING_MESSAGES.time),
    guestCount: choice(BOOKING_LIMITS.minGuests, BOOKING_LIMITS.maxGuests, BOOKING_MESSAGES.guests),
    hoursNeeded: choice(BOOKING_LIMITS.minHours, BOOKING_LIMITS.maxHours, BOOKING_MESSAGES.hours),
    isRetainer: checkbox.default(false),
    selectedServices: serviceIds,
    /** The coupon the customer applied (the visible field is disabled while one is applied). */
    couponCode: optionalCode,
    /** A weekly series (docs/product.md "Weekly series"); absent for a single session. */
    repeat: seriesRepeatSchema,
  };
}

/** The 48-hour rule and the clock-change hour, checked once date and time parse. */
function withTimeRules<S extends z.ZodType<{ recordingDate: string; recordingTime: string }>>(
  schema: S,
  now: SchemaNow,
): S {
  return schema.superRefine((value, ctx) => {
    // zod 4 runs this refinement even when a field's own refine failed (those issues are
    // "continuable"), and studioInstant throws on an impossible date or time: those fields
    // already carry their message, so there is nothing more to check.
    if (!isCalendarDate(value.recordingDate) || !START_TIMES.includes(value.recordingTime)) return;
    if (!isStudioWallTime(value.recordingDate, value.recordingTime)) {
      ctx.addIssue({
        code: "custom",
        path: ["recordingTime"],
        message: BOOKING_MESSAGES.skippedTime,
      });
      return;
    }
    if (
      !meetsAdvanceNotice(studioInstant(value.recordingDate, value.recordingTime), readNow(now))
    ) {
      ctx.addIssue({ code: "custom", path: ["recordingDate"], message: ADVANCE_NOTICE_MESSAGE });
    }
  });
}

export function bookingFormSchema(now: SchemaNow) {
  return withTimeRules(
    z.object({
      ...bookingFields(),
      // The promo code being typed beside Apply. Booking reads the applied one (couponCode),
      // so this is the form's field only for its error and its value to be given back.
      couponEntry: z.unknown().optional(),
    }),
    now,
  );
}
export type BookingRequest = z.output<ReturnType<typeof bookingFormSchema>>;

/** The payload's optional `userId`: when given it must be the caller's own (any other is 403). */
const payloadUserId = () =>
  z.coerce
    .number({ error: BOOKING_MESSAGES.userId })
    .int(BOOKING_MESSAGES.userId)
    .positive(BOOKING_MESSAGES.userId)
    .optional();

/**
 * POST /api/bookings: the create payload of docs/product.md "Data". Client figures (totalCost,
 * originalCost, discountAmount, servicesCost) and retainer dates are accepted and ignored: the
 * server computes them.
 */
export function bookingPayloadSchema(now: SchemaNow) {
  return withTimeRules(
    z.object({
      ...bookingFields(),
      userId: payloadUserId(),
    }),
    now,
  );
}

/**
 * POST /api/bookings' body: the booking payload and, for a single booking, the waitlist offer
 * it claims (docs/product.md "Waitlist"); the form posts its offer as a field of its own.
 */
export function bookingApiPayloadSchema(now: SchemaNow) {
  return withTimeRules(
    z.object({
      ...bookingFields(),
      userId: payloadUserId(),
      waitlistEntryId: z
        .number({ error: WAITLIST_MESSAGES.entryId })
        .int(WAITLIST_MESSAGES.entryId)
        .positive(WAITLIST_MESSAGES.entryId)
        .optional(),
    }),
    now,
  );
}

/** Moving a booking: a new date and start time, under the same time rules as booking. */
export function rescheduleSchema(now: SchemaNow) {
  const { recordingDate, recordingTime } = bookingFields();
  return withTimeRules(z.object({ recordingDate, recordingTime }), now);
}

/** The parts of the form that decide the start-time list and the price preview. */
export const quoteQuerySchema = z.object({
  date: z.string({ error: BOOKING_MESSAGES.date }).refine(isCalendarDate, BOOKING_MESSAGES.date),
  hours: choice(BOOKING_LIMITS.minHours, BOOKING_LIMITS.maxHours, BOOKING_MESSAGES.hours),
});

/** Joining the waitlist (docs/product.md "Waitlist"): the range wanted, under the same time rules. */
export function waitlistRequestSchema(now: SchemaNow) {
  const { recordingDate, recordingTime, hoursNeeded } = bookingFields();
  return withTimeRules(z.object({ recordingDate, recordingTime, hoursNeeded }), now);
}
