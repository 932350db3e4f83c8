import { and, asc, desc, eq, gt, gte, lt, lte, or, type SQL } from "drizzle-orm";
import { type Booking, bookingHistory, bookings, payments, users } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import type { BookingStatus } from "#app/domain/booking-status";
import type { BookingFilters } from "#app/domain/booking-filters";
import { asSweptAt } from "#app/domain/holds";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";
import { CLAIM_CLEARED } from "#app/models/booking-claim.server";
import { bookingColumnsAt, getBooking } from "#app/models/booking.server";
import { bookingFilterWhere } from "#app/models/booking-filters.server";

/** Undefined when the booking changed meanwhile. */
export function writeStatusChange(
  tx: Tx,
  current: Booking,
  change: { to: BookingStatus; actorUserId: number; note: string | null; now: number },
): Booking | undefined {
  const updated = tx
    .update(bookings)
    .set({ status: change.to, holdExpiresAt: null, ...CLAIM_CLEARED })
    .where(and(eq(bookings.id, current.id), eq(bookings.status, current.status)))
    .returning()
    .get();
  if (!updated) return undefined;
  tx.insert(bookingHistory)
    .values({
      bookingId: current.id,
      actorUserId: change.actorUserId,
      fromStatus: current.status,
      toStatus: change.to,
      note: change.note,
      createdAt: change.now,
    })
    .run();
  return updated;
}

/**
 * Both orders walk the starts_at index and stop after one page and one row: no count. Rows read
 * as at `now` (domain/holds.ts).
 */
export function listAdminBookings(
  filters: BookingFilters,
  now: number,
  size?: number,
): Page<Booking> {
  const rows = adminBookingsQuery(filters, now, size).all();
  return toPage(
    rows.map((row) => asSweptAt(row, now)),
    filters.page,
    size,
  );
}

function adminBookingsOrder(filters: Pick<BookingFilters, "date">) {
  return filters.date
    ? [asc(bookings.startsAt), asc(bookings.id)]
    : [desc(bookings.startsAt), desc(bookings.id)];
}

/** Its plan is checked by the model tests. */
export function adminBookingsQuery(filters: BookingFilters, now: number, size?: number) {
  const { limit, offset } = pageWindow(filters.page, size);
  return db
    .select(bookingColumnsAt(now))
    .from(bookings)
    .where(bookingFilterWhere(filters, now))
    .orderBy(...adminBookingsOrder(filters))
    .limit(limit)
    .offset(offset);
}

export type AdminBookingsCursor = { startsAt: number; id: number };

/** By key, not by offset: each step is an index range however deep. */
export function adminBookingsAfter(
  filters: Pick<BookingFilters, "date" | "status" | "membership">,
  now: number,
  cursor: AdminBookingsCursor | null,
  limit: number,
): Booking[] {
  const conditions: (SQL | undefined)[] = [bookingFilterWhere(filters, now)];
  if (cursor) {
    const [within, beyond] = filters.date ? [gte, gt] : [lte, lt];
    conditions.push(
      within(bookings.startsAt, cursor.startsAt),
      or(beyond(bookings.startsAt, cursor.startsAt), beyond(bookings.id, cursor.id)),
    );
  }
  return db
    .select(bookingColumnsAt(now))
    .from(bookings)
    .where(and(...conditions))
    .orderBy(...adminBookingsOrder(filters))
    .limit(limit)
    .all()
    .map((row) => asSweptAt(row, now));
}

/** The booking as it reads at `now`. */
export function getAdminBookingDetails(bookingId: number, now: number) {
  const row = getBooking(db, bookingId);
  if (!row) return null;
  const booking = asSweptAt(row, now);
  const client = db
    .select({ id: users.id, username: users.username, isMember: users.isMember })
    .from(users)
    .where(eq(users.id, booking.userId))
    .get();
  const moneyRows = db
    .select({
      id: payments.id,
      amount: payments.amount,
      method: payments.paymentMethod,
      details: payments.paymentDetails,
      date: payments.paymentDate,
      transactionId: payments.transactionId,
    })
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .orderBy(asc(payments.paymentDate), asc(payments.id))
    .all();
  const history = db
    .select({
      id: bookingHistory.id,
      createdAt: bookingHistory.createdAt,
      fromStatus: bookingHistory.fromStatus,
      toStatus: bookingHistory.toStatus,
      note: bookingHistory.note,
      username: users.username,
    })
    .from(bookingHistory)
    .leftJoin(users, eq(users.id, bookingHistory.actorUserId))
    .where(eq(bookingHistory.bookingId, bookingId))
    .orderBy(asc(bookingHistory.createdAt), asc(bookingHistory.id))
    .all();
  return {
    booking,
    client: client ?? null,
    payments: moneyRows,
    paid: moneyRows.reduce((sum, row) => sum + row.amount, 0),
    history,
  };
}
