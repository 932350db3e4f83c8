/**
 * Claims: while a workflow calls the payment provider about a booking (claim, then call, then
 * record), the booking carries a claim saying which action holds it and since when. Every
 * other action treats a claimed booking as taken: it keeps its slot, its retainer hours
 * cannot be drawn, it cannot be paid (except by the checkout that claimed it), cancelled or
 * moved. A claim older than the lease was left by a crash or a failed provider call; the
 * sweeper finishes or releases it.
 */
export const BOOKING_CLAIMS = [
  /** The customer is cancelling: closing its checkout and/or refunding. */
  "CANCEL_BY_CUSTOMER",
  /** Staff are cancelling for the studio: closing its checkout and/or refunding. */
  "CANCEL_BY_STUDIO",
  /** A hosted checkout is being opened; a double submit joins it (same idempotency key). */
  "CHECKOUT_OPEN",
  /** Staff change an unpaid booking's status forward: its hosted checkout is being closed first. */
  "CHECKOUT_CLOSE",
] as const;
export type BookingClaim = (typeof BOOKING_CLAIMS)[number];

/**
 * How long a claim may stand before the sweeper takes it for abandoned. Far longer than any
 * provider call can take (Stripe: 20 s timeout, 2 network retries), so a live request never
 * loses its claim to the sweeper.
 */
export const CLAIM_LEASE_MS = 10 * 60_000;

export function isCancelClaim(claim: BookingClaim | null): boolean {
  return claim === "CANCEL_BY_CUSTOMER" || claim === "CANCEL_BY_STUDIO";
}

/** Why a booking under `claim` cannot be acted on now (null: not claimed). */
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
