import type { Booking } from "#app/models/rows.server";
import type { AdminBookingRow } from "#app/components/admin/workflow";
import { formatStudioInstant } from "#app/domain/booking-display";
import { hoursLabel } from "#app/domain/session-list";
import { listAdminBookings } from "#app/models/admin-bookings.server";
import { bookingFilterWhere, readBookingFilters } from "#app/models/booking-filters.server";
import { loadCalendar } from "#app/models/calendar.server";

/**
 * What the Bookings and Sessions tabs show for a URL: the filters, and either one page of the
 * list or the calendar narrowed by the same filters (its own range replaces the single day).
 */
export function loadBookingsTab(request: Request, now: number = Date.now()) {
  const url = new URL(request.url);
  const filters = readBookingFilters(url);
  if (filters.view === "calendar") {
    const where = bookingFilterWhere(filters, now, { withDate: false });
    return { filters, search: url.search, list: null, calendar: loadCalendar(url, where, now) };
  }
  const page = listAdminBookings(filters, now);
  return {
    filters,
    search: url.search,
    list: { ...page, rows: page.rows.map(toAdminRow) },
    calendar: null,
  };
}

/** A list row in the admin formats of docs/product.md "Constants", in studio time. */
export function toAdminRow(booking: Booking): AdminBookingRow {
  return {
    id: booking.id,
    name: `${booking.firstName} ${booking.lastName}`,
    email: booking.email,
    phone: booking.phoneNumber,
    date: formatStudioInstant(booking.startsAt, "MMMM d, yyyy"),
    start: formatStudioInstant(booking.startsAt, "h:mm a"),
    end: formatStudioInstant(booking.endsAt, "h:mm a"),
    hours: hoursLabel(booking.hoursNeeded),
    status: booking.status,
  };
}
