import { type Booking, type Order, orders } from "#db/schema";
import { SERIES_REPEAT_DAYS, type SeriesRepeat } from "#app/domain/series-repeat";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { type BookingInput, createBooking } from "#tests/factories/booking";
import type { FactoryDb } from "#tests/factories/database";

export type SeriesInput = Omit<BookingInput, "date"> & {
  /** Studio-local day of the first session (yyyy-MM-dd); 30 days ahead unless given. */
  firstDate?: string;
  repeat?: SeriesRepeat;
  /** How many sessions (2-12). */
  count?: number;
};

/**
 * A weekly series as booking it leaves one (docs/product.md "Weekly series"): an order
 * row and `count` bookings with its id, the same wall time every `repeat`, each priced on its
 * own (hours x rate) and, unless told otherwise, PENDING_PAYMENT with a live hold. One
 * transaction, as the app books a series whole. E-mails are not written.
 */
export function createSeries(
  db: FactoryDb,
  input: SeriesInput,
): { series: Order; bookings: Booking[] } {
  const {
    firstDate = addStudioDays(studioDateOf(Date.now()), 30),
    repeat = "week",
    count = 5,
    ...bookingInput
  } = input;
  return db.transaction(
    (tx) => {
      const series = tx
        .insert(orders)
        .values({
          userId: input.user.id,
          repeatEvery: repeat,
          occurrences: count,
          couponId: bookingInput.couponId ?? null,
        })
        .returning()
        .get();
      const bookings = Array.from({ length: count }, (_, index) =>
        createBooking(tx, {
          status: "PENDING_PAYMENT",
          ...bookingInput,
          date: addStudioDays(firstDate, index * SERIES_REPEAT_DAYS[repeat]),
          orderId: series.id,
        }),
      );
      return { series, bookings };
    },
    { behavior: "immediate" },
  );
}
