import type { PasskeyRow } from "#app/domain/passkey";
import type { SubmissionResult } from "@conform-to/react";
import type { BookingStatus } from "#app/domain/booking-status";
import type { DashboardTab } from "#app/domain/dashboard";
import type { StatusTone } from "#app/domain/session-list";
import type { SupportStatus } from "#app/domain/support-status";
import type { WaitlistRow } from "#app/components/dashboard/waitlist-panel";

/** The shapes routes/dashboard/*.server.ts return: components never import server code. */
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
  seriesId: number | null;
};

export type SeriesGroup = { id: number; heading: string; payHref: string | null };

export type SessionsTabData = {
  upcoming: SessionRow[];
  past: SessionRow[];
  series: SeriesGroup[];
  retainer: {
    from: string;
    through: string;
    usedHours: number;
    totalHours: number;
    hoursLeft: number;
  } | null;
};

export type ProfileTabData = {
  profile: {
    firstName: string;
    lastName: string;
    email: string;
    phoneNumber: string;
    businessName: string;
    isStakeholder: boolean;
  };
  twoFactor: { enabled: boolean; recoveryCodesLeft: number };
  passkeys: PasskeyRow[];
  calendarFeed: { https: string; webcal: string } | null;
};

/** Named apart from the booking form's reply (`result`), read from the same action data. */
export type ProfileFormReply = {
  form: "profile" | "password";
  submission: SubmissionResult<string[]>;
};

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
  more: boolean;
};

export type SupportFormReply = { intent: "support"; result: SubmissionResult<string[]> };

export type DashboardData = {
  tab: DashboardTab;
  sessions: SessionsTabData | null;
  profile: ProfileTabData | null;
  support: SupportTabData | null;
  waitlist: WaitlistRow[] | null;
};

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
