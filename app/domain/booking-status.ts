import type { BookingStatus } from "#db/schema";

/** Labels of spec section 4 for the upper-case statuses stored in data. */
export const STATUS_LABELS: Record<BookingStatus, string> = {
  PENDING_PAYMENT: "Pending Payment",
  PENDING: "Pending Review",
  CONFIRMED: "Confirmed",
  RECORDED: "Recorded",
  POST_PRODUCTION: "In Post-Production",
  COMPLETED: "Completed",
  CANCELLED: "Cancelled",
};

/** Statuses in which a booking has been paid (or was free) and keeps its slot for good. */
export const PAID_STATUSES: readonly BookingStatus[] = [
  "PENDING",
  "CONFIRMED",
  "RECORDED",
  "POST_PRODUCTION",
  "COMPLETED",
];

/**
 * Whether a booking keeps its time range from others: every status but CANCELLED, and an
 * unpaid one only while its payment hold is live.
 */
export function blocksSlot(
  booking: { status: BookingStatus; holdExpiresAt: number | null },
  now: number,
): boolean {
  if (booking.status === "CANCELLED") return false;
  if (booking.status === "PENDING_PAYMENT") return (booking.holdExpiresAt ?? 0) > now;
  return true;
}
