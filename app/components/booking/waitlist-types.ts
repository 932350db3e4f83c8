import type { StartTimeOption } from "#app/domain/availability";

/** docs/product.md "Waitlist". */
export type WaitlistClaimData =
  | {
      kind: "offer";
      entryId: number;
      date: string;
      time: string;
      hours: number;
      until: string;
      availability: { date: string; hours: number; times: StartTimeOption[] };
    }
  | { kind: "gone"; message: string };
