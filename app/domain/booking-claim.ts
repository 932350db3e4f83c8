/**
 * Claim, then call, then record (decision 0074): a claimed booking is taken for every other
 * action; a claim older than the lease was left by a crash, and the sweeper settles it.
 */
export const BOOKING_CLAIMS = [
  "CANCEL_BY_CUSTOMER",
  "CANCEL_BY_STUDIO",
  /** A double submit joins it (same idempotency key). */
  "CHECKOUT_OPEN",
  "CHECKOUT_CLOSE",
] as const;
export type BookingClaim = (typeof BOOKING_CLAIMS)[number];

/** Far longer than any provider call (20 s timeout, 2 retries): a live request never loses it. */
export const CLAIM_LEASE_MS = 10 * 60_000;

export function isCancelClaim(claim: BookingClaim | null): boolean {
  return claim === "CANCEL_BY_CUSTOMER" || claim === "CANCEL_BY_STUDIO";
}

export function claimProblem(claim: BookingClaim | null): string | null {
  switch (claim) {
    case null:
      return null;
    case "CANCEL_BY_CUSTOMER":
    case "CANCEL_BY_STUDIO":
      return "This booking is being cancelled right now. Please reload the page in a moment.";
    case "CHECKOUT_OPEN":
      return "A payment for this booking is being set up right now. Please try again in a moment.";
    case "CHECKOUT_CLOSE":
      return "This booking's online payment is being closed right now. Please try again in a moment.";
  }
}
