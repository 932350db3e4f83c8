import type { SeriesPreview } from "#app/domain/series-preview";
import { seriesPreviewQuerySchema } from "#app/domain/series-preview";
import type { BookingRequest } from "#app/domain/booking-form";
import type { SeriesRepeatRequest } from "#app/domain/series-form";
import { formatDollars } from "#app/domain/pricing";
import type { PublicUser } from "#app/models/user.server";
import { redirectWithSuccess } from "#app/web/toast.server";
import { bookSeries, seriesPreview } from "#app/workflows/book-series.server";

/**
 * The booking form's weekly series (docs/product.md "Weekly series"): the preview of every
 * session a post carries, and booking the series. Kept apart from booking-form.server.ts, which
 * calls in here for a post with a "Repeat".
 */

/** The preview of the series the form describes, or null while it describes none yet. */
export function seriesPreviewFor(formData: FormData, now: number): SeriesPreview | null {
  const query = seriesPreviewQuerySchema.safeParse({
    date: formData.get("recordingDate"),
    time: formData.get("recordingTime"),
    hours: formData.get("hoursNeeded"),
    every: formData.get("repeat.every"),
    count: formData.get("repeat.count"),
  });
  return query.success ? seriesPreview(query.data, now) : null;
}

/**
 * Books the series and sends the customer to pay for it. A refusal is thrown, nothing written:
 * the booking form re-shows itself (with the fresh preview its reply always carries) and says why.
 */
export async function submitSeries(
  user: PublicUser,
  request: BookingRequest,
  repeat: SeriesRepeatRequest,
  now: number,
) {
  const { seriesId, bookings } = bookSeries(user, request, repeat, now);
  const first = bookings[0];
  if (first && bookings.every((booking) => booking.status === "CONFIRMED")) {
    return redirectWithSuccess(`/?booked=${first.id}#main`, {
      message: "Series Confirmed!",
      description: `Your ${bookings.length} sessions are booked and confirmed.`,
    });
  }
  const toPay = bookings.reduce(
    (sum, booking) => sum + (booking.status === "PENDING_PAYMENT" ? booking.totalCost : 0),
    0,
  );
  return redirectWithSuccess(`/checkout/series/${seriesId}#main`, {
    message: "Series Submitted!",
    description: `Pay ${formatDollars(toPay)} to secure your ${bookings.length} sessions.`,
  });
}
