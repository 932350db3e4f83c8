import { type BookingStatus, STATUS_LABELS } from "#app/domain/booking-status";

/**
 * The one colour table (docs/product.md "Screens"): text on every fill passes 4.5:1; `main` is the
 * accent bar Schedule-X draws.
 */
export type StatusColors = { main: string; container: string; onContainer: string };

export const STATUS_COLORS: Record<BookingStatus, StatusColors> = {
  PENDING_PAYMENT: { main: "#d97706", container: "#fdebc8", onContainer: "#6b3d00" },
  PENDING: { main: "#ca8a04", container: "#fef9c3", onContainer: "#5c3a0a" },
  CONFIRMED: { main: "#16a34a", container: "#dcfce7", onContainer: "#14532d" },
  RECORDED: { main: "#2563eb", container: "#dbeafe", onContainer: "#1e3a8a" },
  POST_PRODUCTION: { main: "#9333ea", container: "#f3e8ff", onContainer: "#581c87" },
  COMPLETED: { main: "#14532d", container: "#15803d", onContainer: "#ffffff" },
  CANCELLED: { main: "#dc2626", container: "#fee2e2", onContainer: "#7f1d1d" },
};

/** A status added later reads grey rather than not at all. */
export const OTHER_COLORS: StatusColors = {
  main: "#6b7280",
  container: "#e5e7eb",
  onContainer: "#1f2937",
};

export const LEGEND_STATUSES = Object.keys(STATUS_LABELS) as BookingStatus[];

export function statusColors(status: string): StatusColors {
  return (STATUS_COLORS as Record<string, StatusColors | undefined>)[status] ?? OTHER_COLORS;
}

/** Its colour variables are named after it. */
export function calendarIdOf(status: string): string {
  return status in STATUS_COLORS ? status.toLowerCase().replaceAll("_", "-") : "other";
}
