import type { z } from "#app/domain/zod";
import { claimPath, type WaitlistEntry } from "#app/models/waitlist.server";
import type * as shape from "#app/routes/api/json/shapes";

/** The entry as the JSON API shows it, instants in ISO. */
export function toWaitlistJson(entry: WaitlistEntry): z.infer<typeof shape.waitlistEntryJson> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: entry.id,
    recordingDate: entry.recordingDate,
    recordingTime: entry.recordingTime,
    hoursNeeded: entry.hoursNeeded,
    startsAt: new Date(entry.startsAt).toISOString(),
    endsAt: new Date(entry.endsAt).toISOString(),
    status: entry.status,
    offerExpiresAt: iso(entry.offerExpiresAt),
    claimUrl: entry.status === "OFFERED" ? claimPath(entry.id) : null,
    bookingId: entry.bookingId,
    createdAt: new Date(entry.createdAt).toISOString(),
  };
}
