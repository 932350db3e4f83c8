import type { BookingStatus } from "#app/domain/booking-status";

/** docs/product.md "Calendar feeds". */
export const CALENDAR_FEED_KINDS = ["CUSTOMER", "STUDIO"] as const;
export type CalendarFeedKind = (typeof CALENDAR_FEED_KINDS)[number];

export const FEED_TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Null when the segment is not a token's shape: answered like an unknown token. */
export function feedTokenFromFile(file: string): string | null {
  if (!file.endsWith(".ics")) return null;
  const token = file.slice(0, -".ics".length);
  return TOKEN_PATTERN.test(token) ? token : null;
}

export const NEW_CALENDAR_LINK = "new-calendar-link";
export const NEW_STUDIO_CALENDAR_LINK = "new-studio-calendar-link";

export type FeedUrls = { https: string; webcal: string };

export function feedPath(token: string): string {
  return `/calendar/${token}.ics`;
}

export function feedUrls(appUrl: string, token: string | null): FeedUrls | null {
  if (token === null) return null;
  const https = new URL(feedPath(token), appUrl).toString();
  return { https, webcal: https.replace(/^https?:/, "webcal:") };
}

export const FEED_PAST_DAYS = 365;

/** No surname, phone or e-mail: a feed link lives in calendar apps and their sync. */
export type FeedBooking = {
  id: number;
  status: BookingStatus;
  startsAt: number;
  endsAt: number;
  hoursNeeded: string;
  guestCount: string;
  firstName: string;
  holdExpiresAt: number | null;
};
