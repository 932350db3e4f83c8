import type { z } from "#app/domain/zod";
import { receiptUrl } from "#app/domain/receipts";
import type { BookingPaymentRow } from "#app/models/receipt.server";
import type { Booking } from "#app/models/rows.server";
import type * as shape from "#app/routes/api/json/shapes";

const iso = (epochMs: number) => new Date(epochMs).toISOString();

/** The booking as the JSON API shows it: the fields of docs/product.md "Data" with ISO instants. */
export function toBookingJson(booking: Booking): z.infer<typeof shape.bookingJson> {
  return {
    id: booking.id,
    userId: booking.userId,
    firstName: booking.firstName,
    lastName: booking.lastName,
    businessName: booking.businessName,
    phoneNumber: booking.phoneNumber,
    email: booking.email,
    stakeholder: booking.stakeholder,
    recordingDate: booking.recordingDate,
    recordingTime: booking.recordingTime,
    guestCount: booking.guestCount,
    hoursNeeded: booking.hoursNeeded,
    startsAt: iso(booking.startsAt),
    endsAt: iso(booking.endsAt),
    hourlyRate: booking.hourlyRate,
    totalCost: booking.totalCost,
    originalCost: booking.originalCost,
    couponId: booking.couponId,
    couponCode: booking.couponCode,
    discountAmount: booking.discountAmount,
    status: booking.status,
    holdExpiresAt: booking.holdExpiresAt ? iso(booking.holdExpiresAt) : null,
    isRetainer: booking.isRetainer,
    retainerStartDate: booking.retainerStartDate,
    retainerEndDate: booking.retainerEndDate,
    retainerHoursUsed: booking.retainerHoursUsed,
    retainerTotalHours: booking.retainerTotalHours,
    retainerHoursDrawn: booking.retainerHoursDrawn,
    createdAt: iso(booking.createdAt),
  };
}

/** A payment of the caller's booking (GET /api/bookings), with where its receipt downloads. */
export function toBookingPaymentJson(
  row: BookingPaymentRow,
): z.infer<typeof shape.bookingPaymentJson> {
  return {
    id: row.id,
    amount: row.amount,
    paymentDate: iso(row.paymentDate),
    kind: row.amount < 0 ? "refund" : "payment",
    receiptUrl: row.receiptId === null ? null : receiptUrl(row.bookingId, row.id),
  };
}
