import type { SessionDetails } from "#app/components/dashboard/types";
import { formatStudioInstant, sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import { canCancel, canReschedule } from "#app/domain/cancellation";
import { formatDollars, RETAINER_PACKAGE } from "#app/domain/pricing";
import {
  discountOf,
  guestsLabel,
  paymentMethodLabel,
  hoursLabel,
  shortSessionDate,
  statusLabel,
  statusTone,
} from "#app/domain/session-list";
import { isPayable } from "#app/domain/payments";
import { type getOwnBooking, getBookingServices } from "#app/models/booking.server";
import { listBookingPayments } from "#app/models/payment.server";
import { STUDIO } from "#app/domain/studio";
import { db } from "#app/db.server";

/**
 * Session Details (docs/product.md "Session Details", "Price"): everything the customer may
 * know about one of their bookings, shared by the dialog and the printable page. The rate is
 * the booking's own (recorded when it was priced), not today's.
 */
export function sessionDetails(
  booking: NonNullable<ReturnType<typeof getOwnBooking>>,
  now: number,
): SessionDetails {
  return {
    id: booking.id,
    status: booking.status,
    statusLabel: statusLabel(booking.status),
    tone: statusTone(booking.status),
    date: sessionDate(booking),
    shortDate: shortSessionDate(booking),
    time: sessionTimeRange(booking),
    studio: { name: STUDIO.name, street: STUDIO.street, locality: STUDIO.locality },
    hours: hoursLabel(booking.hoursNeeded),
    guests: guestsLabel(booking.guestCount),
    rate: booking.isRetainer
      ? `Retainer package: ${formatDollars(RETAINER_PACKAGE.price)} for ${RETAINER_PACKAGE.hours} hours within ${RETAINER_PACKAGE.days} days`
      : `${formatDollars(booking.hourlyRate)}/hour`,
    retainerHoursDrawn: booking.retainerHoursDrawn,
    services: getBookingServices(db, booking.id).map((service) => ({
      id: service.serviceId,
      name: service.name,
      price: formatDollars(service.priceAtBooking),
    })),
    originalCost: formatDollars(booking.originalCost),
    discount: discountOf(booking) > 0 ? formatDollars(discountOf(booking)) : null,
    couponCode: booking.couponCode,
    total: formatDollars(booking.totalCost),
    payments: listBookingPayments(booking.id).map((payment) => ({
      id: payment.id,
      date: formatStudioInstant(payment.paymentDate, "MMM d, yyyy, h:mm a"),
      kind: payment.amount < 0 ? ("Refund" as const) : ("Payment" as const),
      method: paymentMethodLabel(payment.paymentMethod, payment.paymentDetails),
      amount: formatDollars(Math.abs(payment.amount)),
    })),
    cancellationReason: booking.status === "CANCELLED" ? booking.cancellationReason : null,
    customer: {
      name: `${booking.firstName} ${booking.lastName}`,
      business: booking.businessName || "Personal Account",
      email: booking.email,
      phone: booking.phoneNumber,
    },
    payable: isPayable(booking, now),
    cancellable: canCancel(booking, now),
    reschedulable: canReschedule(booking, now),
  };
}
