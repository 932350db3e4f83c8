import * as Headless from "@headlessui/react";
import { formatTime } from "#app/components/booking/start-time-select";
import type { Availability } from "#app/components/booking/types";
import type { WaitlistClaimData } from "#app/components/booking/waitlist-types";

/** docs/product.md "Waitlist". */
export const WAITLIST_JOIN_INTENT = "join-waitlist";

export function claimDefaults(claim: WaitlistClaimData | null | undefined) {
  if (claim?.kind !== "offer") return {};
  return { recordingDate: claim.date, recordingTime: claim.time, hoursNeeded: String(claim.hours) };
}

/** The server books the claim only for that same date, start and hours. */
export function WaitlistClaimNotice({ claim }: { claim: WaitlistClaimData | null | undefined }) {
  if (!claim) return null;
  if (claim.kind === "gone") {
    return (
      <p role="status" className="mt-4 rounded-xl bg-paper p-4 ring-1 ring-line">
        {claim.message}
      </p>
    );
  }
  return (
    <div role="status" className="mt-4 rounded-xl bg-paper p-4 ring-1 ring-line">
      <input type="hidden" name="waitlistEntryId" value={claim.entryId} />
      <p className="font-semibold">The time you waited for is held for you</p>
      <p className="text-sm">
        {claim.date} at {formatTime(claim.time)} for {claim.hours} hours, until {claim.until}. The
        form below is filled in with it: book it to keep it.
      </p>
    </div>
  );
}

/** A plain submit of the booking form, so it works without JavaScript. */
export function WaitlistJoin({
  availability,
  chosen,
}: {
  availability: Availability;
  chosen: string;
}) {
  const taken = availability.times.filter((option) => option.reason === "taken");
  if (taken.length === 0) return null;
  const preferred = taken.some((option) => option.time === chosen) ? chosen : taken[0]?.time;
  return (
    <Headless.Field className="mt-4 rounded-xl bg-paper p-4 ring-1 ring-line">
      <Headless.Label className="field-label">
        Want a booked time? We can tell you if it frees up
      </Headless.Label>
      <div className="mt-2 flex flex-wrap items-end gap-3">
        <Headless.Select
          name="waitlistTime"
          key={`${availability.date}-${availability.hours}-${preferred}`}
          defaultValue={preferred}
          className="field-input w-auto"
        >
          {taken.map((option) => (
            <option key={option.time} value={option.time}>
              {formatTime(option.time)}
            </option>
          ))}
        </Headless.Select>
        <button
          type="submit"
          name="intent"
          value={WAITLIST_JOIN_INTENT}
          formNoValidate
          className="btn-secondary text-ink"
        >
          Tell me if it frees up
        </button>
      </div>
    </Headless.Field>
  );
}
