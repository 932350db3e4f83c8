/**
 * Claim, then call, then record (decision 0074): a claimed booking is taken for every other
 * action; a claim older than the lease was left by a crash, and the sweeper settles it.
 */
export const BOOKING_CLAIMS = [
  "CANCEL_BY_CUSTOMER",
  "CANCEL_BY_STUDIO",
  /**
   * A cancellation's refund that may have been made (the call failed, and so did the question):
   * kept for the sweeper, but the same canceller's retry takes it over at once.
   */
  "REFUND_UNKNOWN_BY_CUSTOMER",
  "REFUND_UNKNOWN_BY_STUDIO",
  /** A double submit joins it (same idempotency key). */
  "CHECKOUT_OPEN",
  "CHECKOUT_CLOSE",
] as const;
export type BookingClaim = (typeof BOOKING_CLAIMS)[number];

/** Far longer than any provider call (20 s timeout, 2 retries): a live request never loses it. */
export const CLAIM_LEASE_MS = 10 * 60_000;

export type CancelledBy = "customer" | "studio";

export function cancelClaim(by: CancelledBy, refundUnknown = false): BookingClaim {
  if (by === "customer") return refundUnknown ? "REFUND_UNKNOWN_BY_CUSTOMER" : "CANCEL_BY_CUSTOMER";
  return refundUnknown ? "REFUND_UNKNOWN_BY_STUDIO" : "CANCEL_BY_STUDIO";
}

/** Who a cancellation claim cancels for; null for a checkout's claim. */
export function cancelledByOf(claim: BookingClaim | null): CancelledBy | null {
  switch (claim) {
    case "CANCEL_BY_CUSTOMER":
    case "REFUND_UNKNOWN_BY_CUSTOMER":
      return "customer";
    case "CANCEL_BY_STUDIO":
    case "REFUND_UNKNOWN_BY_STUDIO":
      return "studio";
    default:
      return null;
  }
}

export function isCancelClaim(claim: BookingClaim | null): boolean {
  return cancelledByOf(claim) !== null;
}

/** `retry`: a cancellation by whom, which may take over its own refund of unknown outcome. */
export function claimProblem(claim: BookingClaim | null, retry?: CancelledBy): string | null {
  if (retry && claim === cancelClaim(retry, true)) return null;
  switch (claim) {
    case null:
      return null;
    case "CANCEL_BY_CUSTOMER":
    case "CANCEL_BY_STUDIO":
    case "REFUND_UNKNOWN_BY_CUSTOMER":
    case "REFUND_UNKNOWN_BY_STUDIO":
      return "This booking is being cancelled right now. Please reload the page in a moment.";
    case "CHECKOUT_OPEN":
      return "A payment for this booking is being set up right now. Please try again in a moment.";
    case "CHECKOUT_CLOSE":
      return "This booking's online payment is being closed right now. Please try again in a moment.";
  }
}
