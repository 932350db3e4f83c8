import { formatStudioInstant } from "#app/domain/booking-display";
import type { SeriesRepeat } from "#app/domain/series-repeat";

/**
 * A weekly series after booking (docs/product.md "Weekly series"): how it is named to people,
 * and how one charge for an order becomes one payment row per session. Pure.
 */

/**
 * One charge can pay several sessions of an order, but each session keeps its own payment row
 * (its own receipt, its own refund): the rows' transaction ids are the charge's reference with
 * the booking's number after it, unique as the payments table requires. A charge for one
 * session is its row's reference as it is.
 */
const SESSION_SUFFIX = ":booking-";

export function sessionPaymentReference(
  chargeId: string,
  bookingId: number,
  sessionsCharged: number,
): string {
  return sessionsCharged === 1 ? chargeId : `${chargeId}${SESSION_SUFFIX}${bookingId}`;
}

/** The provider's own reference of a payment row (a series session's charge, or the row's). */
export function providerCharge(transactionId: string): string {
  const at = transactionId.indexOf(SESSION_SUFFIX);
  return at === -1 ? transactionId : transactionId.slice(0, at);
}

/** "Weekly series", "Every-2-weeks series". */
export function seriesKindLabel(repeat: SeriesRepeat): string {
  return repeat === "week" ? "Weekly series" : "Every-2-weeks series";
}

/**
 * The heading of a series on My Sessions and its checkout: "Weekly series · Tuesdays 7:00 PM ·
 * 5 sessions". The day and time are the first live session's, in studio time (every session
 * of a series starts at the same wall time); the count is of the sessions still booked.
 */
export function seriesHeading(
  repeat: SeriesRepeat,
  sessions: readonly { startsAt: number; status: string }[],
): string {
  const live = sessions.filter((session) => session.status !== "CANCELLED");
  const first = live[0] ?? sessions[0];
  const count = live.length;
  const parts = [seriesKindLabel(repeat)];
  if (first) {
    parts.push(
      `${formatStudioInstant(first.startsAt, "EEEE")}s ${formatStudioInstant(first.startsAt, "h:mm a")}`,
    );
  }
  parts.push(count === 1 ? "1 session" : `${count} sessions`);
  return parts.join(" · ");
}

/** Scopes of a customer's cancellation of a series session: this one, or this and all later. */
export const CANCEL_SCOPES = ["one", "following"] as const;
export type CancelScope = (typeof CANCEL_SCOPES)[number];

/**
 * "This and all later": the session chosen and every later one of its order that is still
 * booked, in date order.
 */
export function followingSessions<
  T extends { id: number; startsAt: number; status: string; orderId: number | null },
>(chosen: T, order: readonly T[]): T[] {
  return order
    .filter(
      (session) =>
        session.orderId === chosen.orderId &&
        session.status !== "CANCELLED" &&
        session.status !== "COMPLETED" &&
        (session.startsAt > chosen.startsAt ||
          (session.startsAt === chosen.startsAt && session.id === chosen.id)),
    )
    .sort((a, b) => a.startsAt - b.startsAt || a.id - b.id);
}

/** A stretch of My Sessions: sessions booked alone, or every listed session of one series. */
export type SessionBlock<T> =
  | { kind: "single"; rows: T[] }
  | { kind: "series"; seriesId: number; rows: T[] };

/**
 * Groups a sorted list for My Sessions (docs/product.md "Weekly series"): a series' sessions
 * come together under one heading, placed where its first listed session is; the sessions
 * booked alone around it keep their order.
 */
export function groupSessionRows<T extends { seriesId: number | null }>(
  rows: readonly T[],
): SessionBlock<T>[] {
  const blocks: SessionBlock<T>[] = [];
  const seriesBlocks = new Map<number, { kind: "series"; seriesId: number; rows: T[] }>();
  for (const row of rows) {
    if (row.seriesId === null) {
      const last = blocks.at(-1);
      if (last?.kind === "single") last.rows.push(row);
      else blocks.push({ kind: "single", rows: [row] });
      continue;
    }
    const group = seriesBlocks.get(row.seriesId);
    if (group) {
      group.rows.push(row);
      continue;
    }
    const created = { kind: "series" as const, seriesId: row.seriesId, rows: [row] };
    seriesBlocks.set(row.seriesId, created);
    blocks.push(created);
  }
  return blocks;
}

/** Where a session stands in its series: its place in date order, of every session booked. */
export function seriesPosition(
  bookingId: number,
  sessions: readonly { id: number }[],
): { index: number; total: number } | null {
  const at = sessions.findIndex((session) => session.id === bookingId);
  return at === -1 ? null : { index: at + 1, total: sessions.length };
}

/**
 * The line over a session's siblings (docs/product.md "Weekly series"): for staff "Weekly
 * series · session 2 of 5"; for the customer "Session 2 of 5 of your weekly series".
 */
export function seriesPositionLabel(
  audience: "staff" | "customer",
  repeat: SeriesRepeat,
  position: { index: number; total: number },
): string {
  const kind = seriesKindLabel(repeat);
  return audience === "staff"
    ? `${kind} · session ${position.index} of ${position.total}`
    : `Session ${position.index} of ${position.total} of your ${kind.toLowerCase()}`;
}
