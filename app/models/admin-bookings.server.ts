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

/**
 * The staff's view of bookings (admin Bookings and Sessions tabs, a booking's page, the admin
 * JSON API) and the write of one status change. The workflow that decides a change is
 * workflows/move-session.server.ts.
 */

/**
 * Moves `current` (read in the caller's transaction) to `to`, releasing any claim on it, and
 * keeps the history row. Undefined when the booking changed meanwhile.
 */
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
 * One page of bookings for the filters, sorted in SQL. A single day reads as that day's
 * agenda (earliest first); otherwise the latest sessions come first, upcoming ones included,
 * so what staff work on now is on the first pages. Both orders walk the starts_at index (with
 * the status in front of it when filtered) and stop after one page and one row: no count.
 * Rows read as at `now` (domain/holds.ts).
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

/** The tabs' order: a single day earliest first, otherwise latest first. */
function adminBookingsOrder(filters: Pick<BookingFilters, "date">) {
  return filters.date
    ? [asc(bookings.startsAt), asc(bookings.id)]
    : [desc(bookings.startsAt), desc(bookings.id)];
}

/** The page's query, unrun (its plan is checked by the model tests). */
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

/** Where a walk through the admin bookings stopped: the last row it gave. */
export type AdminBookingsCursor = { startsAt: number; id: number };

/**
 * The next `limit` bookings after `cursor`, in the tabs' order for the filters: the whole list of
 * GET /api/admin/bookings is walked this way (by key, not by offset: each step is an index range
 * however deep).
 */
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

/**
 * A booking's page: the booking as it reads at `now`, its client's account, money and history
 * (oldest first).
 */
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
