/** db/schema.ts builds its column and CHECK constraint from this list, in workflow order. */
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

export const STATUS_LABELS: Record<BookingStatus, string> = {
  PENDING_PAYMENT: "Pending Payment",
  PENDING: "Pending Review",
  CONFIRMED: "Confirmed",
  RECORDED: "Recorded",
  POST_PRODUCTION: "In Post-Production",
  COMPLETED: "Completed",
  CANCELLED: "Cancelled",
};

export const PAID_STATUSES: readonly BookingStatus[] = [
  "PENDING",
  "CONFIRMED",
  "RECORDED",
  "POST_PRODUCTION",
  "COMPLETED",
];
