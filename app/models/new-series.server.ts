import { bookingSeries } from "#db/schema";
import type { SeriesRepeat } from "#app/domain/series-repeat";
import type { Tx } from "#app/models/booking.server";

/** Writes the row a weekly series' bookings point to (docs/product.md "Weekly series"). */
export function insertSeries(
  tx: Tx,
  values: { userId: number; repeatEvery: SeriesRepeat; occurrences: number; createdAt: number },
): number {
  return tx.insert(bookingSeries).values(values).returning({ id: bookingSeries.id }).get().id;
}
