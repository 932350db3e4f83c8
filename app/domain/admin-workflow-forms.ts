import type { BookingStatus } from "#app/domain/booking-status";
import { BULK_ACTIONS, parseStatus } from "#app/domain/admin-workflow";
import { parseId } from "#app/domain/ids";
import { z } from "#app/domain/zod";

/** Apart from admin-workflow.ts, so the lists' pages, which only post buttons, bring no zod. */
export const WORKFLOW_LIMITS = {
  noteMax: 500,
  /** A page is 25 rows; more ids than this is not a selection. */
  bulkMax: 100,
} as const;

export const WORKFLOW_MESSAGES = {
  status: "Please choose a valid status",
  noteLong: `Please keep the note under ${WORKFLOW_LIMITS.noteMax} characters`,
  noteText: "Please write the note as text",
  noneSelected: "Please select at least one booking to update",
  selection: "The selection could not be read. Please select again.",
} as const;

function statusField(allowed?: readonly BookingStatus[]) {
  return z
    .string({ error: WORKFLOW_MESSAGES.status })
    .transform((value, context): BookingStatus => {
      const status = parseStatus(value);
      if (status && (!allowed || allowed.includes(status))) return status;
      context.addIssue({ code: "custom", message: WORKFLOW_MESSAGES.status });
      return z.NEVER;
    });
}

/** The booking is the URL's, read apart: an unknown one is a 404 whatever else was posted. */
export const statusChangeSchema = z.object({
  status: statusField(),
  note: z
    .string({ error: WORKFLOW_MESSAGES.noteText })
    .trim()
    .max(WORKFLOW_LIMITS.noteMax, WORKFLOW_MESSAGES.noteLong)
    .optional()
    .transform((note) => note || null),
});

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
