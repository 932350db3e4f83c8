import type { SubmissionResult } from "@conform-to/react";
import type { StartTimeOption } from "#app/domain/availability";
import type { OpenHold } from "#app/domain/booking-limits";
import type { CouponTerms } from "#app/domain/pricing";
import type { RetainerBalance } from "#app/domain/retainer";
import type { WaitlistClaimData } from "#app/components/booking/waitlist-types";
import type { SeriesPreview } from "#app/domain/series-preview";

/** What the server gives the booking form (loader) and answers to its posts (action). */
export type BookingFormData = {
  signedIn: boolean;
  earliestDate: string;
  /** The last date within BOOKING_HORIZON_DAYS: the date picker's max. */
  latestDate: string;
  services: {
    id: number;
    name: string;
    description: string;
    price: number;
    duration: number | null;
  }[];
  availability: Availability;
  retainer: RetainerBalance | null;
  prefill: {
    firstName: string;
    lastName: string;
    businessName: string;
    phoneNumber: string;
    email: string;
    stakeholder: "yes" | "no";
  } | null;
  /** The waitlist offer the form opens on (docs/product.md "Waitlist"). */
  claim?: WaitlistClaimData | null;
};

export type Availability = { date: string; hours: number; times: StartTimeOption[] };

export type AppliedCoupon = CouponTerms & { code: string };

export type BookingFormReply = {
  intent: string | null;
  result: SubmissionResult<string[]>;
  coupon: AppliedCoupon | null;
  availability: Availability | null;
  /**
   * When booking was refused for MAX_UNPAID_HOLDS or MAX_UNPAID_SESSIONS: the open unpaid
   * bookings to pay or cancel.
   */
  unpaidHolds?: { message: string; holds: OpenHold[] };
  /** The weekly series the post describes, every session free or not (null: no series yet). */
  seriesPreview?: SeriesPreview | null;
};
