import type { StatusTone } from "#app/domain/session-list";

export const OUTBOX_STATUSES = ["PENDING", "SENT", "FAILED"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

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

export function outboxStatusParam(value: string | null): OutboxStatus | null {
  return (Object.keys(OUTBOX_STATUS_LABELS) as OutboxStatus[]).find((s) => s === value) ?? null;
}

export type EmailAttachment = {
  filename: string;
  contentType: string;
  content: string;
};
