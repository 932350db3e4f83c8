import { formatStudioInstant } from "#app/domain/booking-display";
import { STATUS_LABELS } from "#app/domain/booking-status";
import { asSweptAt } from "#app/domain/holds";
import { seriesPosition, seriesPositionLabel } from "#app/domain/series-sessions";
import { statusLabel } from "#app/domain/session-list";
import { seriesOfBooking } from "#app/models/order.server";
import type { SeriesSiblingsData } from "#app/components/series/series-siblings";

/**
 * A series session's place in its series and its sibling sessions, for the admin booking page
 * (staff words, links to each admin page) and Session Details (the customer's words, links to
 * each of their sessions); docs/product.md "Weekly series". Null for a session booked alone.
 */
export function seriesSiblings(
  booking: { id: number; orderId: number | null; userId: number },
  audience: "staff" | "customer",
  now: number,
): SeriesSiblingsData | null {
  const series = seriesOfBooking(booking);
  if (!series) return null;
  const sessions = series.sessions.map((session) => asSweptAt(session, now));
  const position = seriesPosition(booking.id, sessions);
  if (!position) return null;
  const base = audience === "staff" ? "/admin/bookings" : "/dashboard/sessions";
  return {
    heading: seriesPositionLabel(audience, series.repeat, position),
    sessions: sessions.map((session) => ({
      id: session.id,
      href: `${base}/${session.id}`,
      when: formatStudioInstant(session.startsAt, "EEE, MMMM d, yyyy, h:mm a"),
      status: audience === "staff" ? STATUS_LABELS[session.status] : statusLabel(session.status),
      current: session.id === booking.id,
    })),
  };
}
