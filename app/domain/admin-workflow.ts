import { BOOKING_STATUSES, type BookingStatus } from "#db/schema";
import { STATUS_LABELS } from "#app/domain/booking-status";
import { parseId } from "#app/domain/ids";
import type { StatusTone } from "#app/domain/session-list";
import { z } from "#app/domain/zod";

/**
 * The staff workflow (spec section 4, product-decisions "Payments"): ONE rule for every status
 * change staff make, from a row button, the bulk menu or PUT /api/admin/bookings/{id}. Pure, so
 * the buttons offered and the server's refusal are the same answer.
 */

/** The forward path of a session; CANCELLED stands outside it. */
export const WORKFLOW_ORDER: readonly BookingStatus[] = [
  "PENDING_PAYMENT",
  "PENDING",
  "CONFIRMED",
  "RECORDED",
  "POST_PRODUCTION",
  "COMPLETED",
];

/** Statuses nothing leaves. */
export const FINAL_STATUSES: readonly BookingStatus[] = ["CANCELLED", "COMPLETED"];

/**
 * Why staff cannot move a booking from `from` to `to`, or null when they can: forward along the
 * workflow (skipping steps is allowed: a walk-in paid in cash is confirmed at once), or to
 * CANCELLED from anything but CANCELLED and COMPLETED; never backwards, never out of a final
 * status; the same status is not a change.
 */
export function transitionProblem(from: BookingStatus, to: BookingStatus): string | null {
  if (from === to) return `This booking is already ${STATUS_LABELS[to]}.`;
  if (from === "CANCELLED") return "A cancelled booking cannot change status.";
  if (from === "COMPLETED") return "A completed booking cannot change status.";
  if (to === "CANCELLED") return null;
  if (WORKFLOW_ORDER.indexOf(to) < WORKFLOW_ORDER.indexOf(from)) {
    return `A booking cannot go back from ${STATUS_LABELS[from]} to ${STATUS_LABELS[to]}.`;
  }
  return null;
}

export function canTransition(from: BookingStatus, to: BookingStatus): boolean {
  return transitionProblem(from, to) === null;
}

export type WorkflowAction = { to: BookingStatus; label: string };

/** The single-row buttons' labels: the spec gives the first two, the rest say what happens. */
const NEXT_STEP_LABELS: Partial<Record<BookingStatus, string>> = {
  PENDING: "Mark for Review",
  CONFIRMED: "Confirm Session",
  RECORDED: "Mark as Recorded",
  POST_PRODUCTION: "Send to Post-Production",
  COMPLETED: "Mark as Completed",
};
export const CANCEL_ACTION: WorkflowAction = { to: "CANCELLED", label: "Cancel Session" };

/** The next step along the workflow, if any (a row offers only that one, not every skip). */
export function nextStep(status: BookingStatus): WorkflowAction | null {
  if (FINAL_STATUSES.includes(status)) return null;
  const next = WORKFLOW_ORDER[WORKFLOW_ORDER.indexOf(status) + 1];
  const label = next ? NEXT_STEP_LABELS[next] : undefined;
  return next && label ? { to: next, label } : null;
}

/** A row's buttons: the next step, then cancelling, as far as the rule allows. */
export function rowActions(status: BookingStatus): WorkflowAction[] {
  const next = nextStep(status);
  const actions = next ? [next] : [];
  return canTransition(status, "CANCELLED") ? [...actions, CANCEL_ACTION] : actions;
}

/** The bulk 'Update Status' menu of spec section 2, in its order. */
export const BULK_ACTIONS: readonly WorkflowAction[] = [
  { to: "PENDING", label: "Set to Pending Review" },
  { to: "CONFIRMED", label: "Confirm Sessions" },
  { to: "RECORDED", label: "Mark as Recorded" },
  { to: "POST_PRODUCTION", label: "Send to Post-Production" },
  { to: "COMPLETED", label: "Mark as Completed" },
  { to: "CANCELLED", label: "Cancel Sessions" },
];

/** A status posted by a form or a client: the stored upper-case name, any case, or null. */
export function parseStatus(value: unknown): BookingStatus | null {
  if (typeof value !== "string") return null;
  const upper = value.trim().toUpperCase();
  return (BOOKING_STATUSES as readonly string[]).includes(upper) ? (upper as BookingStatus) : null;
}

/** 'Successfully updated X of Y bookings to "Confirmed"' (spec section 4). */
export function bulkResultMessage(updated: number, total: number, to: BookingStatus): string {
  return `Successfully updated ${updated} of ${total} bookings to "${STATUS_LABELS[to]}"`;
}

/**
 * Badge colours in the admin lists: every workflow step its own, close to the calendar's
 * (spec section 2); the label carries the meaning, the colour only helps scanning.
 */
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

export const WORKFLOW_LIMITS = {
  noteMax: 500,
  /** A page of the Sessions list is 25 rows; more ids than this is not a selection. */
  bulkMax: 100,
} as const;

export const WORKFLOW_MESSAGES = {
  status: "Please choose a valid status",
  noteLong: `Please keep the note under ${WORKFLOW_LIMITS.noteMax} characters`,
  noteText: "Please write the note as text",
  noneSelected: "Please select at least one booking to update",
  selection: "The selection could not be read. Please select again.",
} as const;

/** The status a button posts, in any case, as stored; `allowed` narrows the choice. */
function statusField(allowed: readonly BookingStatus[] = BOOKING_STATUSES) {
  return z
    .string({ error: WORKFLOW_MESSAGES.status })
    .transform((value, context): BookingStatus => {
      const status = parseStatus(value);
      if (status && allowed.includes(status)) return status;
      context.addIssue({ code: "custom", message: WORKFLOW_MESSAGES.status });
      return z.NEVER;
    });
}

/**
 * One booking's move (the row buttons, and a booking's page with its note for the history).
 * Which booking is the row's (or the page's URL), not something a person chooses: the action
 * reads that apart, so an unknown booking is a 404 whatever else was posted.
 */
export const statusChangeSchema = z.object({
  status: statusField(),
  note: z
    .string({ error: WORKFLOW_MESSAGES.noteText })
    .trim()
    .max(WORKFLOW_LIMITS.noteMax, WORKFLOW_MESSAGES.noteLong)
    .optional()
    .transform((note) => note || null),
});

/** The Sessions tab's 'Update Status' menu over the checked rows. */
export const bulkChangeSchema = z.object({
  ids: z
    .array(
      z.string({ error: WORKFLOW_MESSAGES.selection }).transform((text, context) => {
        const id = parseId(text);
        if (id !== null) return id;
        context.addIssue({ code: "custom", message: WORKFLOW_MESSAGES.selection });
        return z.NEVER;
      }),
      { error: WORKFLOW_MESSAGES.selection },
    )
    .min(1, { error: WORKFLOW_MESSAGES.noneSelected, abort: true })
    .max(WORKFLOW_LIMITS.bulkMax, WORKFLOW_MESSAGES.selection),
  status: statusField(BULK_ACTIONS.map((action) => action.to)),
});
