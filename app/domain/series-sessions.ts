import { formatStudioInstant } from "#app/domain/booking-display";
import type { SeriesRepeat } from "#app/domain/series-repeat";

/**
 * One charge may pay several sessions, but each keeps its own payment row (its own receipt and
 * refund): the charge's reference with the booking's number after it, unique as the table needs.
 */
const SESSION_SUFFIX = ":booking-";

export function sessionPaymentReference(
  chargeId: string,
  bookingId: number,
  sessionsCharged: number,
): string {
  return sessionsCharged === 1 ? chargeId : `${chargeId}${SESSION_SUFFIX}${bookingId}`;
}

export function isPaymentOfCharge(transactionId: string, chargeId: string): boolean {
  return transactionId === chargeId || transactionId.startsWith(`${chargeId}${SESSION_SUFFIX}`);
}

export function providerCharge(transactionId: string): string {
  const at = transactionId.indexOf(SESSION_SUFFIX);
  return at === -1 ? transactionId : transactionId.slice(0, at);
}

export function seriesKindLabel(repeat: SeriesRepeat): string {
  return repeat === "week" ? "Weekly series" : "Every-2-weeks series";
}

/** The first live session's day and time (every session starts at the same wall time). */
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

export const CANCEL_SCOPES = ["one", "following"] as const;
export type CancelScope = (typeof CANCEL_SCOPES)[number];

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

export type SessionBlock<T> =
  | { kind: "single"; rows: T[] }
  | { kind: "series"; seriesId: number; rows: T[] };

/** A series' sessions come together, placed where its first listed session is. */
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

export function seriesPosition(
  bookingId: number,
  sessions: readonly { id: number }[],
): { index: number; total: number } | null {
  const at = sessions.findIndex((session) => session.id === bookingId);
  return at === -1 ? null : { index: at + 1, total: sessions.length };
}

/** docs/product.md "Weekly series". */
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
