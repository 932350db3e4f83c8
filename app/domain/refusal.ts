import type { OpenHold } from "#app/domain/booking-limits";
import type { RefundQuote } from "#app/domain/cancellation";

/**
 * Every way a rule can refuse what a person asked, across the workflows. Each has one answer,
 * the same for the form and the JSON API (app/web/refusals.server.ts).
 */
export const REFUSAL_KINDS = [
  "not-found",
  // Accounts (docs/product.md "Accounts and sign-ins").
  "username-taken",
  "wrong-password",
  // Booking (docs/product.md "Booking"), a weekly series and a waitlist claim.
  "start-refused",
  "slot-taken",
  "horizon",
  "coupon-refused",
  "service-gone",
  "unpaid-holds",
  "claim-refused",
  "series-refused",
  "series-conflicts",
  // The waitlist (docs/product.md "Waitlist").
  "range-free",
  "already-waiting",
  "waitlist-full",
  "own-booking",
  // Support requests (docs/product.md "Support and chat").
  "not-own-booking",
  "support-move-refused",
  "resolution-required",
  // Staff move a booking along the workflow (docs/product.md "States and transitions").
  "status-change-refused",
  // Staff's session files (docs/product.md "Session files").
  "file-name-refused",
  "file-gone",
  "nothing-to-deliver",
  // Coupons (docs/product.md "Coupons").
  "duplicate-coupon",
  // Cancel and reschedule (docs/product.md "Cancel, refund, reschedule").
  "not-cancellable",
  "refund-changed",
  "not-reschedulable",
  "new-slot-refused",
] as const;

export type RefusalKind = (typeof REFUSAL_KINDS)[number];

/** A rule said no: nothing was written, and `message` says why in our words. */
export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message);
    this.name = "Refusal";
  }
}

/** Too many unpaid bookings: with the customer's open ones, to pay for or cancel. */
export class UnpaidHoldsRefusal extends Refusal {
  constructor(
    message: string,
    readonly openHolds: OpenHold[],
  ) {
    super("unpaid-holds", message);
  }
}

/** Some sessions of a series cannot be booked: each with the nearest free starts of its day. */
export class SeriesConflictsRefusal extends Refusal {
  constructor(
    message: string,
    readonly conflicts: { recordingDate: string; alternatives: string[] }[],
  ) {
    super("series-conflicts", message);
  }
}

/** The refund is no longer the one the customer was shown: with the refund as it stands now. */
export class RefundChangedRefusal extends Refusal {
  constructor(
    message: string,
    readonly quote: RefundQuote,
  ) {
    super("refund-changed", message);
  }
}
