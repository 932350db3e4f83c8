import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import { bulkResultMessage } from "#app/domain/admin-workflow";
import {
  bulkChangeSchema,
  statusChangeSchema,
  WORKFLOW_MESSAGES,
} from "#app/domain/admin-workflow-forms";
import { STATUS_LABELS } from "#app/domain/booking-status";
import { parseId } from "#app/domain/ids";
import { bulkChangeStatus, changeBookingStatus } from "#app/workflows/change-booking-status.server";
import type { PublicUser } from "#app/models/user.server";
import { DatabaseBusyError } from "#app/db.server";
import { readForm } from "#app/web/form.server";
import {
  PAYMENT_SERVICE_UNAVAILABLE_MESSAGE,
  PaymentServiceError,
} from "#app/workflows/payment-provider.server";
import { cancelFollowingForStudio } from "#app/workflows/cancel-booking.server";
import { Refusal } from "#app/domain/refusal";
import { formRefusal } from "#app/web/refusals.server";
import { formatDollars } from "#app/domain/pricing";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import { samePageUrl } from "#app/web/same-page.server";

/**
 * The workflow forms of the Bookings and Sessions tabs and of a booking's page, told apart by
 * `intent`: `status` (one row: `id`, `status`, optional `note`), `bulk` (`ids`, `status`) and,
 * on a series session's own page, `cancel-following` (it and every later session of its series).
 * Success goes back to the page it came from, filters kept (post, redirect, get); a refusal
 * re-renders it with the error toast of docs/product.md "Messages" and changes nothing.
 */
export const WORKFLOW_INTENTS = ["status", "bulk", "cancel-following"] as const;

/**
 * A refusal: the message the page shows above its lists, and for a booking's own page (whose
 * form has a note) the form's reply, so the note's error stands at the note.
 */
export type WorkflowActionData = { message: string; result?: SubmissionResult<string[]> };

const UPDATE_FAILED = "Error updating booking";
const BULK_FAILED = "Error during batch update";

export async function workflowAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  admin: PublicUser,
  allowed: readonly (typeof WORKFLOW_INTENTS)[number][] = WORKFLOW_INTENTS,
  /** A booking's own page acts on the booking of its URL, whatever the form says. */
  bookingId: number | null = null,
) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const fail = (
    title: string,
    message: string,
    status: number,
    result?: SubmissionResult<string[]>,
  ) =>
    replyWithToast<WorkflowActionData>(
      context,
      formData,
      result ? { message, result } : { message },
      { type: "error", message: title, description: message },
      { status },
    );

  if (intent === "status" && allowed.includes("status")) {
    const id = bookingId ?? parseId(String(formData.get("id") ?? ""));
    if (id === null) return fail(UPDATE_FAILED, "Booking not found", 404);
    const submission = parseWithZod(formData, { schema: statusChangeSchema });
    if (submission.status !== "success") {
      const error = submission.error ?? {};
      const message = error.status ? WORKFLOW_MESSAGES.status : (error.note?.[0] ?? "");
      return fail(UPDATE_FAILED, message || WORKFLOW_MESSAGES.status, 400, submission.reply());
    }
    const { status, note } = submission.value;
    try {
      const booking = await changeBookingStatus(id, status, admin, note);
      return redirectWithSuccess(samePageUrl(request, ["selected"]), {
        message: "Booking updated",
        description: `Booking #${booking.id} is now ${STATUS_LABELS[booking.status]}.`,
      });
    } catch (error) {
      const known = knownFailure(error);
      if (known) return fail(UPDATE_FAILED, known.message, known.status);
      throw error;
    }
  }

  if (intent === "bulk" && allowed.includes("bulk")) {
    const submission = parseWithZod(formData, { schema: bulkChangeSchema });
    if (submission.status !== "success") {
      const error = submission.error ?? {};
      const messages = Object.entries(error).flatMap(([name, list]) =>
        name.startsWith("ids") ? (list ?? []) : [],
      );
      if (messages.includes(WORKFLOW_MESSAGES.noneSelected)) {
        return fail("No bookings selected", WORKFLOW_MESSAGES.noneSelected, 400);
      }
      if (messages.length > 0) return fail(BULK_FAILED, WORKFLOW_MESSAGES.selection, 400);
      return fail(BULK_FAILED, WORKFLOW_MESSAGES.status, 400);
    }
    const { ids, status } = submission.value;
    const result = await bulkChangeStatus(ids, status, admin);
    const summary = bulkResultMessage(result.updated, result.total, status);
    const reasons = result.failures
      .slice(0, 3)
      .map((failure) => `#${failure.bookingId}: ${failure.message}`)
      .join(" ");
    if (result.updated === 0) return fail(BULK_FAILED, `${summary}. ${reasons}`, 409);
    return redirectWithSuccess(samePageUrl(request, ["selected"]), {
      message: summary,
      ...(reasons ? { description: `Not updated: ${reasons}` } : {}),
    });
  }

  if (intent === "cancel-following" && allowed.includes("cancel-following") && bookingId) {
    try {
      const { cancelled, stopped } = await cancelFollowingForStudio(
        { bookingId, actorUserId: admin.id },
        Date.now(),
      );
      const refund = cancelled.reduce((sum, { quote }) => sum + quote.refund, 0);
      const done = `${cancelled.length} ${cancelled.length === 1 ? "session" : "sessions"} cancelled, ${formatDollars(refund)} refunded.`;
      if (stopped) {
        const why = knownFailure(stopped.error)?.message ?? PAYMENT_SERVICE_UNAVAILABLE_MESSAGE;
        return fail(UPDATE_FAILED, `${done} Booking #${stopped.bookingId} and later: ${why}`, 502);
      }
      return redirectWithSuccess(samePageUrl(request, []), {
        message: "Sessions cancelled",
        description: done,
      });
    } catch (error) {
      const known = knownFailure(error);
      if (known) return fail(UPDATE_FAILED, known.message, known.status);
      throw error;
    }
  }

  throw data("Unknown form", { status: 400 });
}

/** The failures a form explains to staff (anything else is a bug and surfaces as one). */
function knownFailure(error: unknown): { message: string; status: number } | null {
  if (error instanceof Refusal)
    return { message: error.message, status: formRefusal(error).init.status };
  if (error instanceof PaymentServiceError) return { message: error.message, status: 502 };
  if (error instanceof DatabaseBusyError) {
    return { message: "The booking system is busy right now. Please try again.", status: 503 };
  }
  return null;
}
