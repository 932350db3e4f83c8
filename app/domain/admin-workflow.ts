import { BOOKING_STATUSES, type BookingStatus, STATUS_LABELS } from "#app/domain/booking-status";
import type { StatusTone } from "#app/domain/session-list";

/**
 * One rule for every status change staff make (docs/product.md "Admin workflow"): row buttons,
 * the bulk menu and the API. Pure, so the buttons offered and the server's refusal agree.
 */

export const WORKFLOW_ORDER: readonly BookingStatus[] = [
  "PENDING_PAYMENT",
  "PENDING",
  "CONFIRMED",
  "RECORDED",
  "POST_PRODUCTION",
  "COMPLETED",
];

export const FINAL_STATUSES: readonly BookingStatus[] = ["CANCELLED", "COMPLETED"];

/** Skipping forward is allowed: a walk-in paid in cash is confirmed at once. */
export function statusChangeProblem(from: BookingStatus, to: BookingStatus): string | null {
  if (from === to) return `This booking is already ${STATUS_LABELS[to]}.`;
  if (from === "CANCELLED") return "A cancelled booking cannot change status.";
  if (from === "COMPLETED") return "A completed booking cannot change status.";
  if (to === "CANCELLED") return null;
  if (WORKFLOW_ORDER.indexOf(to) < WORKFLOW_ORDER.indexOf(from)) {
    return `A booking cannot go back from ${STATUS_LABELS[from]} to ${STATUS_LABELS[to]}.`;
  }
  return null;
}

export function canChangeStatus(from: BookingStatus, to: BookingStatus): boolean {
  return statusChangeProblem(from, to) === null;
}

export type WorkflowAction = { to: BookingStatus; label: string };

/** The original site named the first two (docs/product.md "Admin workflow"). */
const NEXT_STEP_LABELS: Partial<Record<BookingStatus, string>> = {
  PENDING: "Mark for Review",
  CONFIRMED: "Confirm Session",
  RECORDED: "Mark as Recorded",
  POST_PRODUCTION: "Send to Post-Production",
  COMPLETED: "Mark as Completed",
};
export const CANCEL_ACTION: WorkflowAction = { to: "CANCELLED", label: "Cancel Session" };

/** A row offers only the next step, not every skip. */
export function nextStep(status: BookingStatus): WorkflowAction | null {
  if (FINAL_STATUSES.includes(status)) return null;
  const next = WORKFLOW_ORDER[WORKFLOW_ORDER.indexOf(status) + 1];
  const label = next ? NEXT_STEP_LABELS[next] : undefined;
  return next && label ? { to: next, label } : null;
}

export function rowActions(status: BookingStatus): WorkflowAction[] {
  const next = nextStep(status);
  const actions = next ? [next] : [];
  return canChangeStatus(status, "CANCELLED") ? [...actions, CANCEL_ACTION] : actions;
}

/** docs/product.md "Screens", in its order. */
export const BULK_ACTIONS: readonly WorkflowAction[] = [
  { to: "PENDING", label: "Set to Pending Review" },
  { to: "CONFIRMED", label: "Confirm Sessions" },
  { to: "RECORDED", label: "Mark as Recorded" },
  { to: "POST_PRODUCTION", label: "Send to Post-Production" },
  { to: "COMPLETED", label: "Mark as Completed" },
  { to: "CANCELLED", label: "Cancel Sessions" },
];

export function parseStatus(value: unknown): BookingStatus | null {
  if (typeof value !== "string") return null;
  const upper = value.trim().toUpperCase();
  return (BOOKING_STATUSES as readonly string[]).includes(upper) ? (upper as BookingStatus) : null;
}

/** docs/product.md "States and transitions". */
export function bulkResultMessage(updated: number, total: number, to: BookingStatus): string {
  return `Successfully updated ${updated} of ${total} bookings to "${STATUS_LABELS[to]}"`;
}

/** The label carries the meaning; the colour only helps scanning (docs/product.md "Screens"). */
export function workflowTone(status: BookingStatus): StatusTone {
  const tones: Record<BookingStatus, StatusTone> = {
    PENDING_PAYMENT: "yellow",
    PENDING: "grey",
    CONFIRMED: "green",
    RECORDED: "blue",
    POST_PRODUCTION: "purple",
    COMPLETED: "green",
    CANCELLED: "red",
  };
  return tones[status];
}
