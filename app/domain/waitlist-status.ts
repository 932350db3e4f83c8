/**
 * Where a waitlist entry stands (docs/product.md "Waitlist"). The database's column and CHECK
 * constraint (db/schema.ts) are built from this list.
 * - WAITING: open, waiting for the range to free up.
 * - OFFERED: the range freed and is held for this customer until `offer_expires_at`.
 * - CLAIMED: the customer booked the range from the offer.
 * - LAPSED: the offer ran out unclaimed (the range passed to the next entry), or the wanted
 *   start became too close or past to book.
 * - REMOVED: the customer took the entry off the list.
 */
export const WAITLIST_STATUSES = ["WAITING", "OFFERED", "CLAIMED", "LAPSED", "REMOVED"] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/** Entries that count against MAX_WAITLIST and can still be removed. */
export const OPEN_WAITLIST_STATUSES = [
  "WAITING",
  "OFFERED",
] as const satisfies readonly WaitlistStatus[];
