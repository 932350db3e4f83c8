import { redirectWithError, redirectWithSuccess } from "#app/web/toast.server";
import type { BookingFormData } from "#app/components/booking/types";
import type { WaitlistClaimData } from "#app/components/booking/waitlist-types";
import { holdDeadline } from "#app/domain/booking-display";
import { waitlistRequestSchema } from "#app/domain/booking-form";
import { parseId } from "#app/domain/ids";
import { sameRange, WAITLIST_MESSAGES } from "#app/domain/waitlist";
import { env } from "#app/env.server";
import { getAvailability } from "#app/models/booking.server";
import type { PublicUser } from "#app/models/user.server";
import { getOwnEntry, openEntriesOf, type WaitlistEntry } from "#app/models/waitlist.server";
import { joinWaitlist } from "#app/workflows/waitlist.server";
import { Refusal } from "#app/domain/refusal";
import { formRefusal } from "#app/web/refusals.server";

/**
 * The waitlist's part of the booking form (docs/product.md "Waitlist"): "Tell me if it frees
 * up", and opening the form on an offer to claim it.
 */

const isLive = (entry: WaitlistEntry | undefined, now: number): entry is WaitlistEntry =>
  entry?.status === "OFFERED" && (entry.offerExpiresAt ?? 0) > now;

/** The claim link of a visitor: sign in first; the form then opens on the offer. */
export function signInToClaim() {
  return redirectWithError("/auth#main", {
    message: "Sign in to book",
    description: "Sign in to book the time held for you: the booking form opens on it.",
  });
}

/**
 * The offer the form opens on: the link's (`?claim={id}`), else the customer's own live offer
 * that runs out first. A link to an offer that is gone (ran out, removed, someone else's)
 * says so.
 */
export function loadWaitlistClaim(
  url: URL,
  user: PublicUser | null,
  now: number,
): WaitlistClaimData | null {
  if (!user) return null;
  const asked = url.searchParams.get("claim");
  let entry: WaitlistEntry | undefined;
  if (asked !== null) {
    const id = parseId(asked);
    entry = id === null ? undefined : getOwnEntry(id, user.id);
    if (!isLive(entry, now)) return { kind: "gone", message: WAITLIST_MESSAGES.claimGone };
  } else {
    entry = openEntriesOf(user.id)
      .filter((open) => isLive(open, now))
      .sort((a, b) => (a.offerExpiresAt ?? 0) - (b.offerExpiresAt ?? 0))[0];
    if (!entry) return null;
  }
  return {
    kind: "offer",
    entryId: entry.id,
    date: entry.recordingDate,
    time: entry.recordingTime,
    hours: entry.hoursNeeded,
    until: holdDeadline(entry.offerExpiresAt ?? now),
    availability: {
      date: entry.recordingDate,
      hours: entry.hoursNeeded,
      times: getAvailability(
        entry.recordingDate,
        entry.hoursNeeded,
        now,
        env.BUFFER_MINUTES,
        undefined,
        entry.id,
      ),
    },
  };
}

/** The form's data with the offer: its day's start times, the offer free for its customer. */
export function withWaitlistClaim(
  form: BookingFormData,
  claim: WaitlistClaimData | null,
): BookingFormData {
  return claim?.kind === "offer"
    ? { ...form, claim, availability: claim.availability }
    : { ...form, claim };
}

/**
 * The offer a booking claims: the posted entry, unless it is the customer's own for another
 * range (then the post is an ordinary booking). An entry that is not theirs or not live is
 * passed on, so the booking is refused with our message.
 */
export function claimFrom(
  formData: FormData,
  user: PublicUser,
  request: { recordingDate: string; recordingTime: string; hoursNeeded: number },
): { waitlistEntryId: number } | undefined {
  const raw = formData.get("waitlistEntryId");
  const id = parseId(typeof raw === "string" ? raw : undefined);
  if (id === null) return undefined;
  const entry = getOwnEntry(id, user.id);
  if (entry && !sameRange(entry, request)) return undefined;
  return { waitlistEntryId: id };
}

const NOT_ADDED = "Not added to the waitlist";

/** "Tell me if it frees up": joins, or answers with our message through `refuse`. */
export function joinFromBookingForm<T>(
  formData: FormData,
  user: PublicUser,
  now: number,
  refuse: (title: string, message: string, status: number) => T,
) {
  const parsed = waitlistRequestSchema(now).safeParse({
    recordingDate: formData.get("recordingDate"),
    recordingTime: formData.get("waitlistTime"),
    hoursNeeded: formData.get("hoursNeeded"),
  });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? WAITLIST_MESSAGES.notTaken;
    return refuse(NOT_ADDED, message, 400);
  }
  try {
    joinWaitlist(user.id, parsed.data, now);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const { toast, init } = formRefusal(error, NOT_ADDED);
    return refuse(toast.message, toast.description, init.status);
  }
  return redirectWithSuccess("/dashboard?tab=bookings#waitlist", {
    message: "You are on the waitlist",
    description: "We will e-mail you if that time frees up, and hold it for you for a while.",
  });
}
