import type { SubmissionResult } from "@conform-to/react";
import type { StartTimeOption } from "#app/domain/availability";
import type { OpenHold } from "#app/domain/booking-limits";
import type { CouponTerms } from "#app/domain/pricing";
import type { RetainerBalance } from "#app/domain/retainer";
import type { WaitlistClaimData } from "#app/components/booking/waitlist-types";
import type { SeriesPreview } from "#app/domain/series-preview";

export type BookingFormData = {
  signedIn: boolean;
  earliestDate: string;
  /** The date picker's max. */
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
  claim?: WaitlistClaimData | null;
};

export type Availability = { date: string; hours: number; times: StartTimeOption[] };

export type AppliedCoupon = CouponTerms & { code: string };

export type BookingFormReply = {
  intent: string | null;
  result: SubmissionResult<string[]>;
  coupon: AppliedCoupon | null;
  availability: Availability | null;
  unpaidHolds?: { message: string; holds: OpenHold[] };
  seriesPreview?: SeriesPreview | null;
};
