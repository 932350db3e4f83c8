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
 * The booking form (docs/product.md "Data", "Validation"), one schema for the server, the
 * browser and the JSON API. The clock is a parameter: the 48-hour rule depends on it.
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

/** Written out: importing coupons.ts would bring date-fns into this form's chunk. */
const COUPON_NOT_FOUND = "This coupon is invalid or has expired.";

const optionalCode = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z.string({ error: COUPON_NOT_FOUND }).trim().max(50, COUPON_NOT_FOUND).optional(),
);

export function bookingFields() {
  const { isStakeholder: _profileOnly, ...contact } = profileFields;
  return {
    ...contact,
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
    couponCode: optionalCode,
    repeat: seriesRepeatSchema,
  };
}

function withTimeRules<S extends z.ZodType<{ recordingDate: string; recordingTime: string }>>(
  schema: S,
  now: SchemaNow,
): S {
  return schema.superRefine((value, ctx) => {
    // zod 4 runs this even when a field's own refine failed, and studioInstant throws on an
    // impossible date or time, which already carries its message.
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
      // The code being typed beside Apply; booking reads the applied one (couponCode).
      couponEntry: z.unknown().optional(),
    }),
    now,
  );
}
export type BookingRequest = z.output<ReturnType<typeof bookingFormSchema>>;

/** When given it must be the caller's own (any other is 403). */
const payloadUserId = () =>
  z.coerce
    .number({ error: BOOKING_MESSAGES.userId })
    .int(BOOKING_MESSAGES.userId)
    .positive(BOOKING_MESSAGES.userId)
    .optional();

/** Client figures (totalCost and the like) are accepted and ignored: the server computes them. */
export function bookingPayloadSchema(now: SchemaNow) {
  return withTimeRules(
    z.object({
      ...bookingFields(),
      userId: payloadUserId(),
    }),
    now,
  );
}

/** The form posts its waitlist offer as a field of its own (docs/product.md "Waitlist"). */
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

export function rescheduleSchema(now: SchemaNow) {
  const { recordingDate, recordingTime } = bookingFields();
  return withTimeRules(z.object({ recordingDate, recordingTime }), now);
}

export const quoteQuerySchema = z.object({
  date: z.string({ error: BOOKING_MESSAGES.date }).refine(isCalendarDate, BOOKING_MESSAGES.date),
  hours: choice(BOOKING_LIMITS.minHours, BOOKING_LIMITS.maxHours, BOOKING_MESSAGES.hours),
});

export function waitlistRequestSchema(now: SchemaNow) {
  const { recordingDate, recordingTime, hoursNeeded } = bookingFields();
  return withTimeRules(z.object({ recordingDate, recordingTime, hoursNeeded }), now);
}
