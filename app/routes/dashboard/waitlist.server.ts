import type { RouterContextProvider } from "react-router";
import { WAITLIST_REMOVE_INTENT, type WaitlistRow } from "#app/components/dashboard/waitlist-panel";
import { DatabaseBusyError } from "#app/db.server";
import { holdDeadline, sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import { parseId } from "#app/domain/ids";
import { WAITLIST_MESSAGES } from "#app/domain/waitlist";
import type { PublicUser } from "#app/models/user.server";
import { claimPath, openEntriesOf } from "#app/models/waitlist.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import { removeWaitlistEntry } from "#app/workflows/waitlist.server";
import { Refusal } from "#app/domain/refusal";
import { formRefusal } from "#app/web/refusals.server";

/** The dashboard's Waitlist list and its Remove form (docs/product.md "Waitlist"). */
export const WAITLIST_INTENTS = [WAITLIST_REMOVE_INTENT] as const;

export function loadWaitlistRows(user: PublicUser, now: number): WaitlistRow[] {
  return openEntriesOf(user.id).map((entry) => ({
    id: entry.id,
    date: sessionDate(entry),
    time: sessionTimeRange(entry),
    hours: entry.hoursNeeded,
    offer:
      entry.status === "OFFERED" && entry.offerExpiresAt !== null && entry.offerExpiresAt > now
        ? { until: holdDeadline(entry.offerExpiresAt), claimUrl: claimPath(entry.id) }
        : null,
  }));
}

/** Remove: the customer's own open entry; anything else is our message, nothing changed. */
export async function waitlistAction(
  context: Readonly<RouterContextProvider>,
  user: PublicUser,
  formData: FormData,
) {
  const raw = formData.get("id");
  const id = parseId(typeof raw === "string" ? raw : undefined);
  const refuse = (message: string, status: number) =>
    replyWithToast(
      context,
      formData,
      { intent: WAITLIST_REMOVE_INTENT },
      { type: "error", message: "Not removed", description: message },
      { status },
    );
  if (id === null) return refuse(WAITLIST_MESSAGES.notFound, 404);
  try {
    removeWaitlistEntry(user.id, id, Date.now());
  } catch (error) {
    if (error instanceof Refusal) return refuse(error.message, formRefusal(error).init.status);
    if (error instanceof DatabaseBusyError) {
      return refuse("The studio's calendar is busy. Please try again.", 503);
    }
    throw error;
  }
  return redirectWithSuccess("/dashboard?tab=bookings#waitlist", {
    message: "Removed from the waitlist",
    description: "We will not e-mail you about that time.",
  });
}
