import { BOOKING_STATUSES } from "#app/domain/booking-status";
import { COUPON_TYPES } from "#app/domain/coupon-type";
import { SUPPORT_STATUSES } from "#app/domain/support-status";
import { WAITLIST_STATUSES } from "#app/domain/waitlist-status";
import { z } from "#app/domain/zod";

/**
 * The bodies the JSON API answers (docs/product.md "The JSON API"), as zod schemas: the OpenAPI
 * document at /api/openapi.json is generated from them and the integration suite checks every
 * answer against them. The `to*Json` function beside them in this folder builds each body and
 * is typed by its schema; the objects are strict, so a field added to one only fails the check.
 */

const instant = z.iso.datetime().meta({ description: "An ISO 8601 UTC instant" });
const day = z.string().meta({ description: "A studio calendar day, yyyy-MM-dd" });
const id = z.number().int().positive();

/** The service checks (parseService) give one message per field, not a list. */
export const serviceFieldErrors = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

export const publicUserJson = z
  .strictObject({
    id,
    username: z.string(),
    isAdmin: z.boolean(),
    isMember: z.boolean(),
    firstName: z.string(),
    lastName: z.string(),
    businessName: z.string().nullable(),
    phoneNumber: z.string(),
    email: z.string(),
    isStakeholder: z.boolean(),
  })
  .meta({ id: "User" });

export const adminUserJson = z
  .strictObject({ id, username: z.string(), isAdmin: z.boolean(), isMember: z.boolean() })
  .meta({ id: "AdminUser" });

export const bookingJson = z
  .strictObject({
    id,
    userId: id,
    firstName: z.string(),
    lastName: z.string(),
    businessName: z.string().nullable(),
    phoneNumber: z.string(),
    email: z.string(),
    stakeholder: z.string(),
    recordingDate: day,
    recordingTime: z.string(),
    guestCount: z.string(),
    hoursNeeded: z.string(),
    startsAt: instant,
    endsAt: instant,
    hourlyRate: z.number().int(),
    totalCost: z.number().int(),
    originalCost: z.number().int(),
    couponId: id.nullable(),
    couponCode: z.string().nullable(),
    discountAmount: z.number().int(),
    status: z.enum(BOOKING_STATUSES),
    holdExpiresAt: instant.nullable(),
    isRetainer: z.boolean(),
    retainerStartDate: z.string().nullable(),
    retainerEndDate: z.string().nullable(),
    retainerHoursUsed: z.number().int(),
    retainerTotalHours: z.number().int(),
    retainerHoursDrawn: z.number().int(),
    createdAt: instant,
  })
  .meta({ id: "Booking" });

export const bookingPaymentJson = z
  .strictObject({
    id,
    amount: z.number().int(),
    paymentDate: instant,
    kind: z.enum(["payment", "refund"]),
    receiptUrl: z.string().nullable().meta({
      description: "The PDF receipt (credit note for a refund); the owner and staff only",
    }),
  })
  .meta({ id: "BookingPayment" });

export const ownBookingJson = bookingJson
  .extend({ payments: z.array(bookingPaymentJson) })
  .meta({ id: "OwnBooking" });

export const createdBookingJson = bookingJson
  .extend({ checkoutUrl: z.string().nullable() })
  .meta({ id: "CreatedBooking" });

export const refundQuoteJson = z
  .strictObject({
    kind: z.enum(["unpaid", "full", "late"]),
    paid: z.number(),
    fee: z.number(),
    refund: z.number(),
  })
  .meta({ id: "RefundQuote" });

export const cancelQuoteJson = z.strictObject({
  bookingId: id,
  cancellable: z.boolean(),
  message: z.string().nullable(),
  refund: refundQuoteJson.nullable(),
});

export const cancelledJson = z.strictObject({ booking: bookingJson, refund: refundQuoteJson });

export const couponJson = z
  .strictObject({
    id,
    code: z.string(),
    description: z.string(),
    type: z.enum(COUPON_TYPES),
    value: z.number().int(),
    maxUses: z.number().int(),
    currentUses: z.number().int(),
    expiryDate: day,
    isActive: z.boolean(),
    createdAt: instant,
  })
  .meta({ id: "Coupon" });

export const couponCheckJson = z.strictObject({
  isValid: z.boolean(),
  message: z.string().nullable(),
  coupon: z
    .strictObject({ code: z.string(), value: z.number().int(), type: z.enum(COUPON_TYPES) })
    .nullable(),
});

export const serviceJson = z
  .strictObject({
    id,
    name: z.string(),
    description: z.string(),
    price: z.number().int(),
    duration: z.number().int().nullable(),
    isActive: z.boolean(),
    createdAt: instant,
  })
  .meta({ id: "Service" });

export const supportRequestJson = z
  .strictObject({
    id,
    userId: id,
    bookingId: id.nullable(),
    name: z.string(),
    email: z.string(),
    phoneNumber: z.string().nullable(),
    issueType: z.string(),
    description: z.string(),
    preferredContactMethod: z.string(),
    status: z.enum(SUPPORT_STATUSES),
    createdAt: instant,
    resolvedAt: instant.nullable(),
    resolution: z.string().nullable(),
  })
  .meta({ id: "SupportRequest" });

export const adminSupportRequestJson = supportRequestJson
  .extend({
    username: z.string(),
    booking: z
      .strictObject({
        id,
        startsAt: instant,
        endsAt: instant,
        status: z.enum(BOOKING_STATUSES).nullable(),
      })
      .nullable(),
  })
  .meta({ id: "AdminSupportRequest" });

export const paymentJson = z
  .strictObject({
    id,
    bookingId: id,
    amount: z.number().meta({ description: "Whole dollars; a refund is negative" }),
    paymentDate: instant,
  })
  .meta({ id: "Payment" });

export const availabilityJson = z.strictObject({
  date: day,
  hours: z.number().int(),
  earliestDate: day,
  times: z.array(
    z.strictObject({
      time: z.string(),
      available: z.boolean(),
      reason: z.enum(["too-soon", "taken", "skipped", "current"]).nullable(),
    }),
  ),
});

/** A session file (toBookingFileJson in session-file.ts); never its storage key. */
export const sessionFileJson = z
  .strictObject({
    id,
    name: z.string(),
    size: z.number().int().nonnegative().meta({ description: "Bytes" }),
    contentType: z.string(),
    createdAt: instant,
    deliveredAt: instant.nullable().meta({ description: "Null until staff deliver it" }),
    expiresAt: instant
      .nullable()
      .meta({ description: "When it is deleted (delivery + retention); null until delivered" }),
    downloadUrl: z.string().meta({ description: "GET it for the bytes (or a redirect to them)" }),
  })
  .meta({ id: "SessionFile" });

/** A waitlist entry (GET/POST /api/waitlist). */
export const waitlistEntryJson = z.strictObject({
  id: z.number().int(),
  recordingDate: z.string(),
  recordingTime: z.string(),
  hoursNeeded: z.number().int(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.enum(WAITLIST_STATUSES),
  offerExpiresAt: z.string().nullable(),
  /** While OFFERED: the booking form, filled in with the offer. */
  claimUrl: z.string().nullable(),
  bookingId: z.number().int().nullable(),
  createdAt: z.string(),
});

/**
 * POST /api/bookings/{id}/cancel with `"scope": "following"` (docs/product.md "Weekly series"):
 * every session cancelled with its refund, and the refunds added up (whole dollars).
 */
export const cancelledFollowingJson = z.strictObject({
  cancelled: z.array(cancelledJson),
  refund: z.number().int(),
});

/** GET /api/bookings/{id}/cancel?scope=following: each session's refund and their total. */
export const followingQuoteShape = z.strictObject({
  bookingId: z.number().int(),
  cancellable: z.boolean(),
  message: z.string().nullable(),
  sessions: z.array(z.strictObject({ bookingId: z.number().int(), refund: refundQuoteJson })),
  refund: z.number().int().nullable(),
});
