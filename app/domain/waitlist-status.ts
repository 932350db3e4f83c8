/**
 * docs/product.md "Waitlist"; db/schema.ts builds its column and CHECK from this list. LAPSED: the
 * offer ran out unclaimed, or the start came too close to book.
 */
export const WAITLIST_STATUSES = ["WAITING", "OFFERED", "CLAIMED", "LAPSED", "REMOVED"] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

export const OPEN_WAITLIST_STATUSES = [
  "WAITING",
  "OFFERED",
] as const satisfies readonly WaitlistStatus[];
