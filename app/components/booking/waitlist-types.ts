import type { StartTimeOption } from "#app/domain/availability";

/**
 * The waitlist offer the booking form opens on (docs/product.md "Waitlist"): the customer's own
 * live offer (from the e-mail's link, or the one held for them when they come back signed in),
 * or why the link's offer is gone.
 */
export type WaitlistClaimData =
  | {
      kind: "offer";
      entryId: number;
      date: string;
      time: string;
      hours: number;
      /** "3:45 PM on Nov 24 (Atlanta time)" */
      until: string;
      /** The day's start times with the customer's own offer free for them. */
      availability: { date: string; hours: number; times: StartTimeOption[] };
    }
  | { kind: "gone"; message: string };
