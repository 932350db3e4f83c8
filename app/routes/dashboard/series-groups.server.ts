import type { SeriesGroup } from "#app/components/dashboard/types";
import { seriesHeading } from "#app/domain/series-sessions";
import { isPayable } from "#app/domain/payments";
import type { listOwnBookings } from "#app/models/booking.server";
import { listOwnSeries } from "#app/models/order.server";

/**
 * My Sessions' series headings (docs/product.md "Weekly series"): "Weekly series · Tuesdays
 * 7:00 PM · 5 sessions", and the series checkout while any of its sessions is unpaid.
 */
export function seriesGroups(
  userId: number,
  own: ReturnType<typeof listOwnBookings>,
  now: number,
): SeriesGroup[] {
  const series = listOwnSeries(userId);
  if (series.length === 0) return [];
  return series.map((one) => {
    const sessions = own
      .filter((booking) => booking.orderId === one.id)
      .sort((a, b) => a.startsAt - b.startsAt || a.id - b.id);
    return {
      id: one.id,
      heading: seriesHeading(one.repeatEvery, sessions),
      payHref: sessions.some((booking) => isPayable(booking, now))
        ? `/checkout/series/${one.id}`
        : null,
    };
  });
}
