import type { PasskeyRow } from "#app/domain/passkey";
import type { SubmissionResult } from "@conform-to/react";
import type { BookingStatus } from "#app/domain/booking-status";
import type { DashboardTab } from "#app/domain/dashboard";
import type { StatusTone } from "#app/domain/session-list";
import type { SupportStatus } from "#app/domain/support-status";
import type { WaitlistRow } from "#app/components/dashboard/waitlist-panel";

/**
 * What the dashboard's components draw, as the server must build it: the page controllers in
 * routes/dashboard/*.server.ts return these shapes (their return types say so), and the
 * components never import server code to learn them.
 */

/** One row of My Sessions. */
export type SessionRow = {
  id: number;
  date: string;
  time: string;
  hours: number;
  guests: number;
  status: BookingStatus;
  statusLabel: string;
  tone: StatusTone;
  totalCost: number;
  discount: number;
  isRetainer: boolean;
  payable: boolean;
  cancellable: boolean;
  reschedulable: boolean;
  /** The weekly series it belongs to (docs/product.md "Weekly series"), if any. */
  seriesId: number | null;
};

/** A weekly series on My Sessions: its heading, and where to pay what is unpaid. */
export type SeriesGroup = { id: number; heading: string; payHref: string | null };

/** My Sessions: both lists, and the retainer's balance when the customer has one. */
export type SessionsTabData = {
  upcoming: SessionRow[];
  past: SessionRow[];
  /** The customer's series, each shown as one group (SessionRow.seriesId). */
  series: SeriesGroup[];
  retainer: {
    from: string;
    through: string;
    usedHours: number;
    totalHours: number;
    hoursLeft: number;
  } | null;
};

/** Profile Settings: the form starts from what is stored. */
export type ProfileTabData = {
  profile: {
    firstName: string;
    lastName: string;
    email: string;
    phoneNumber: string;
    businessName: string;
    isStakeholder: boolean;
  };
  /** Two-factor sign-in: on or off, and the recovery codes not yet used. */
  twoFactor: { enabled: boolean; recoveryCodesLeft: number };
  /** The account's passkeys (docs/product.md "Accounts and sign-ins"). */
  passkeys: PasskeyRow[];
  /** The customer's private calendar feed (docs/product.md "Calendar feeds"). */
  calendarFeed: { https: string; webcal: string } | null;
};

/**
 * What the profile tab's forms are answered with when refused. Named apart from the booking
 * form's reply (`result`), which the same page also renders and reads from the same action data.
 */
export type ProfileFormReply = {
  form: "profile" | "password";
  submission: SubmissionResult<string[]>;
};

/** Help & Support: the bookings a request may be about, and the customer's own requests. */
export type SupportTabData = {
  bookings: { id: number; label: string }[];
  requests: {
    id: number;
    submitted: string;
    issueType: string;
    booking: string | null;
    description: string;
    status: SupportStatus;
    statusLabel: string;
    resolution: string | null;
  }[];
  /** Older requests were left out. */
  more: boolean;
};

/** What a refused support post gives back to the form; `intent` tells it from other replies. */
export type SupportFormReply = { intent: "support"; result: SubmissionResult<string[]> };

/** The dashboard section: the open tab, and only that tab's data. */
export type DashboardData = {
  tab: DashboardTab;
  sessions: SessionsTabData | null;
  profile: ProfileTabData | null;
  support: SupportTabData | null;
  /** Beside My Sessions: the open waitlist entries (docs/product.md "Waitlist"). */
  waitlist: WaitlistRow[] | null;
};

/** Session Details: everything the customer may know about one of their bookings. */
export type SessionDetails = {
  id: number;
  status: BookingStatus;
  statusLabel: string;
  tone: StatusTone;
  date: string;
  shortDate: string;
  time: string;
  studio: { name: string; street: string; locality: string };
  hours: string;
  guests: string;
  rate: string;
  retainerHoursDrawn: number;
  services: { id: number; name: string; price: string }[];
  originalCost: string;
  discount: string | null;
  couponCode: string | null;
  total: string;
  payments: {
    id: number;
    date: string;
    kind: "Payment" | "Refund";
    method: string;
    amount: string;
  }[];
  cancellationReason: string | null;
  customer: { name: string; business: string; email: string; phone: string };
  payable: boolean;
  cancellable: boolean;
  reschedulable: boolean;
};
