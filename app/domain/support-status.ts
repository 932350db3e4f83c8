/** db/schema.ts builds its column and CHECK constraint from this list. */
export const SUPPORT_STATUSES = ["PENDING", "IN_PROGRESS", "RESOLVED", "CANCELLED"] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

export const SUPPORT_STATUS_LABELS: Record<SupportStatus, string> = {
  PENDING: "Pending",
  IN_PROGRESS: "In Progress",
  RESOLVED: "Resolved",
  CANCELLED: "Cancelled",
};
