/**
 * The vocabulary of a booking's life, shared by the database (db/schema.ts builds its column
 * and CHECK constraint from this list), the server and the browser. Order is the studio's
 * workflow order.
 */
export const BOOKING_STATUSES = [
  "PENDING_PAYMENT",
  "PENDING",
  "CONFIRMED",
  "RECORDED",
  "POST_PRODUCTION",
  "COMPLETED",
  "CANCELLED",
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Labels of docs/product.md "Booking statuses" for the upper-case statuses stored in data. */
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
