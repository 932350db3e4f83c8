import { data, type RouterContextProvider } from "react-router";
import { BULK_ACTIONS, bulkResultMessage, parseStatus } from "#app/domain/admin-workflow";
import { STATUS_LABELS } from "#app/domain/booking-status";
import { parseId } from "#app/domain/ids";
import {
  bulkChangeStatus,
  changeBookingStatus,
  WorkflowError,
} from "#app/workflows/move-session.server";
import type { PublicUser } from "#app/models/user.server";
import { isDatabaseBusyResponse } from "#app/db.server";
import { readForm } from "#app/web/form.server";
import { PaymentServiceError } from "#app/workflows/payment-provider.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import { samePageUrl } from "#app/web/same-page.server";

/**
 * The workflow forms of the Bookings and Sessions tabs and of a booking's page, told apart by
 * `intent`: `status` (one row: `id`, `status`, optional `note`) and `bulk` (`ids`, `status`).
 * Success goes back to the page it came from, filters kept (post, redirect, get); a refusal
 * re-renders it with the spec's error toast and changes nothing.
 */
export const WORKFLOW_INTENTS = ["status", "bulk"] as const;

export type WorkflowActionData = { message: string };

const UPDATE_FAILED = "Error updating booking";
const BULK_FAILED = "Error during batch update";
/** A page of the Sessions list is 25 rows; more ids than this is not a selection. */
const MAX_BULK = 100;
const MAX_NOTE = 500;

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
  const fail = (title: string, message: string, status: number) =>
    replyWithToast<WorkflowActionData>(
      context,
      formData,
      { message },
      { type: "error", message: title, description: message },
      { status },
    );

  if (intent === "status" && allowed.includes("status")) {
    const id = bookingId ?? parseId(String(formData.get("id") ?? ""));
    const status = parseStatus(formData.get("status"));
    const rawNote = formData.get("note");
    const note = typeof rawNote === "string" ? rawNote.trim() : "";
    if (id === null) return fail(UPDATE_FAILED, "Booking not found", 404);
    if (!status) return fail(UPDATE_FAILED, "Please choose a valid status", 400);
    if (note.length > MAX_NOTE) {
      return fail(UPDATE_FAILED, `Please keep the note under ${MAX_NOTE} characters`, 400);
    }
    try {
      const booking = await changeBookingStatus(id, status, admin, note || null);
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
    const rawIds = formData.getAll("ids").map((value) => parseId(String(value)));
    const status = parseStatus(formData.get("status"));
    if (rawIds.length === 0) {
      return fail("No bookings selected", "Please select at least one booking to update", 400);
    }
    const ids = rawIds.filter((id): id is number => id !== null);
    if (ids.length !== rawIds.length || ids.length > MAX_BULK) {
      return fail(BULK_FAILED, "The selection could not be read. Please select again.", 400);
    }
    if (!status || !BULK_ACTIONS.some((action) => action.to === status)) {
      return fail(BULK_FAILED, "Please choose a valid status", 400);
    }
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

  throw data("Unknown form", { status: 400 });
}

/** The failures a form explains to staff (anything else is a bug and surfaces as one). */
function knownFailure(error: unknown): { message: string; status: number } | null {
  if (error instanceof WorkflowError) {
    return { message: error.message, status: error.kind === "not-found" ? 404 : 409 };
  }
  if (error instanceof PaymentServiceError) return { message: error.message, status: 502 };
  if (isDatabaseBusyResponse(error)) {
    return { message: "The booking system is busy right now. Please try again.", status: 503 };
  }
  return null;
}
