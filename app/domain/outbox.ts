import type { StatusTone } from "#app/domain/session-list";

/** Where an e-mail of the outbox stands: waiting (or retrying), delivered, given up. */
export const OUTBOX_STATUSES = ["PENDING", "SENT", "FAILED"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** How an outbox row's delivery status reads to staff (the admin Emails page). */

export const OUTBOX_STATUS_LABELS: Record<OutboxStatus, string> = {
  PENDING: "Pending",
  SENT: "Sent",
  FAILED: "Failed",
};

export const OUTBOX_TONES: Record<OutboxStatus, StatusTone> = {
  PENDING: "yellow",
  SENT: "green",
  FAILED: "red",
};

/** `?status=` of the Emails page: a status, or every e-mail. */
export function outboxStatusParam(value: string | null): OutboxStatus | null {
  return (Object.keys(OUTBOX_STATUS_LABELS) as OutboxStatus[]).find((s) => s === value) ?? null;
}

/** A file attached to an e-mail (the .ics of a session), as the outbox stores it. */
export type EmailAttachment = {
  filename: string;
  contentType: string;
  /** Base64. */
  content: string;
};
