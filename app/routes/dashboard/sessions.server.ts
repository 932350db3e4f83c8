import type { SessionRow, SessionsTabData } from "#app/components/dashboard/types";
import { sessionTimeRange } from "#app/domain/booking-display";
import { PAID_STATUSES } from "#app/domain/booking-status";
import { canCancel, canReschedule } from "#app/domain/cancellation";
import { parseId } from "#app/domain/ids";
import { retainerHoursLeft } from "#app/domain/retainer";
import {
  discountOf,
  retainerLastDay,
  shortSessionDate,
  shortStudioDay,
  splitSessions,
  statusLabel,
  statusTone,
} from "#app/domain/session-list";
import { getActiveRetainer, getOwnBooking, listOwnBookings } from "#app/models/booking.server";
import { isPayable } from "#app/domain/payments";
import { hasPayment } from "#app/models/payment.server";
import type { PublicUser } from "#app/models/user.server";
import { seriesGroups } from "#app/routes/dashboard/series-groups.server";

/**
 * My Sessions: upcoming and past sessions and the retainer balance. Both lists are sent (one
 * customer's list is bounded), so the Upcoming/Past links (`?list=past`) need no other loader
 * and the panel reads the same data on / and /dashboard.
 */
export function loadSessionsTab(user: PublicUser, now: number): SessionsTabData {
  const own = listOwnBookings(user.id, now);
  const { upcoming, past } = splitSessions(own, now);
  const retainer = getActiveRetainer(user.id, now);
  const series = seriesGroups(user.id, own, now);
  // A session is grouped under its order's heading when that order is a weekly series.
  const seriesIds = new Set(series.map((one) => one.id));
  const row = (list: "upcoming" | "past") => (booking: OwnBooking) =>
    sessionRow(booking, now, list, seriesIds);
  return {
    upcoming: upcoming.map(row("upcoming")),
    past: past.map(row("past")),
    series,
    retainer: retainer
      ? {
          from: shortStudioDay(retainer.startDate),
          through: shortStudioDay(retainerLastDay(retainer.endDate)),
          usedHours: retainer.usedHours,
          totalHours: retainer.totalHours,
          hoursLeft: retainerHoursLeft(retainer),
        }
      : null,
  };
}
type OwnBooking = ReturnType<typeof listOwnBookings>[number];

function sessionRow(
  booking: OwnBooking,
  now: number,
  list: "upcoming" | "past",
  seriesIds: ReadonlySet<number>,
): SessionRow {
  const payable = list === "upcoming" && isPayable(booking, now);
  return {
    id: booking.id,
    date: shortSessionDate(booking),
    time: sessionTimeRange(booking),
    hours: Number(booking.hoursNeeded),
    guests: Number(booking.guestCount),
    status: booking.status,
    statusLabel: statusLabel(booking.status),
    tone: statusTone(booking.status),
    totalCost: booking.totalCost,
    discount: discountOf(booking),
    isRetainer: booking.isRetainer,
    // Past sessions are only viewed. isPayable is false for a $0 booking and an expired hold.
    payable,
    cancellable: list === "upcoming" && canCancel(booking, now),
    reschedulable: list === "upcoming" && canReschedule(booking, now),
    seriesId: booking.orderId !== null && seriesIds.has(booking.orderId) ? booking.orderId : null,
  };
}

/**
 * The "payment received" dialog after Pay Now (`?paid=<id>`): only for the owner, and only
 * when that booking really has been paid, so the URL alone cannot make it claim a payment.
 */
export function paidConfirmation(url: URL, user: PublicUser) {
  const id = parseId(url.searchParams.get("paid") ?? undefined);
  const booking = id === null ? undefined : getOwnBooking(id, user.id);
  if (!booking || !PAID_STATUSES.includes(booking.status) || !hasPayment(booking.id)) return null;
  return {
    bookingId: booking.id,
    date: shortSessionDate(booking),
    time: sessionTimeRange(booking),
    statusLabel: statusLabel(booking.status),
  };
}
