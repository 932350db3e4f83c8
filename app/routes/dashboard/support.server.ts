import { parseWithZod } from "@conform-to/zod/v4";
import type { RouterContextProvider } from "react-router";
import type { SupportFormReply, SupportTabData } from "#app/components/dashboard/types";
import { DatabaseBusyError } from "#app/db.server";
import { formatStudioInstant } from "#app/domain/booking-display";
import { STATUS_LABELS } from "#app/domain/booking-status";
import {
  ISSUE_TYPES,
  type IssueType,
  supportReceivedMessage,
  supportRequestSchema,
} from "#app/domain/support";
import { SUPPORT_STATUS_LABELS } from "#app/domain/support-status";
import { listBookingChoices, listOwnSupportRequests } from "#app/models/support.server";
import type { PublicUser } from "#app/models/user.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import { createSupportRequest } from "#app/workflows/support.server";
import { Refusal } from "#app/domain/refusal";
import { formRefusal } from "#app/web/refusals.server";

/** Help & Support: the 'Get help' form and the customer's own requests. */
export const SUPPORT_INTENTS = ["support"] as const;

/**
 * Where a sent request lands: the list that now shows it. The form posts to a URL with a
 * fragment, which a redirect without its own would inherit.
 */
const SENT_URL = "/dashboard?tab=support#support-requests";

/** "Tue, Nov 24, 2026 · 10:00 AM", studio time: how a booking is named in the form and list. */
function bookingLabel(id: number, startsAt: number): string {
  return `Booking #${id} · ${formatStudioInstant(startsAt, "EEE, MMM d, yyyy · h:mm a")}`;
}

export function loadSupportTab(user: PublicUser): SupportTabData {
  const { requests, more } = listOwnSupportRequests(user.id);
  return {
    bookings: listBookingChoices(user.id).map((booking) => ({
      id: booking.id,
      label: `${bookingLabel(booking.id, booking.startsAt)} (${STATUS_LABELS[booking.status]})`,
    })),
    requests: requests.map((request) => ({
      id: request.id,
      submitted: formatStudioInstant(request.createdAt, "MMM d, yyyy"),
      issueType: ISSUE_TYPES[request.issueType as IssueType] ?? request.issueType,
      booking:
        request.bookingId !== null && request.bookingStartsAt !== null
          ? bookingLabel(request.bookingId, request.bookingStartsAt)
          : null,
      description: request.description,
      status: request.status,
      statusLabel: SUPPORT_STATUS_LABELS[request.status],
      resolution: request.status === "RESOLVED" ? request.resolution : null,
    })),
    more,
  };
}
const NOT_SENT = { type: "error" as const, message: "Request not sent" };

/** Files the 'Get help' form; PRG back to the tab on success, the form with errors otherwise. */
export async function supportAction(
  _request: Request,
  context: Readonly<RouterContextProvider>,
  user: PublicUser,
  formData: FormData,
) {
  const submission = parseWithZod(formData, { schema: supportRequestSchema });
  const toast = replyWithToast.bind(null, context, formData);
  if (submission.status !== "success") {
    return toast(
      { intent: "support", result: submission.reply() } satisfies SupportFormReply,
      { ...NOT_SENT, description: "Please check the highlighted fields." },
      { status: 400 },
    );
  }
  try {
    createSupportRequest(user.id, submission.value, Date.now());
  } catch (error) {
    if (error instanceof Refusal) {
      const { toast: refused, init, field = "bookingId" } = formRefusal(error);
      return toast(
        {
          intent: "support",
          result: submission.reply({ fieldErrors: { [field]: [error.message] } }),
        } satisfies SupportFormReply,
        refused,
        init,
      );
    }
    // Another connection held the database past busy_timeout: nothing was written, the
    // customer keeps what they typed and is asked to send it again.
    if (error instanceof DatabaseBusyError) {
      return toast(
        { intent: "support", result: submission.reply() } satisfies SupportFormReply,
        { ...NOT_SENT, description: "The system is busy right now. Please send it again." },
        { status: 503 },
      );
    }
    throw error;
  }
  return redirectWithSuccess(SENT_URL, {
    message: "Request sent",
    description: supportReceivedMessage(submission.value.preferredContactMethod),
  });
}
