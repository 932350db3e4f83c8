import type { BookingStatus } from "#app/domain/booking-status";

/**
 * Calendar feeds' vocabulary (docs/product.md "Calendar feeds"): a customer's feed of their own
 * sessions and staff's studio feed of every live one, each behind a private token in its URL.
 */
export const CALENDAR_FEED_KINDS = ["CUSTOMER", "STUDIO"] as const;
export type CalendarFeedKind = (typeof CALENDAR_FEED_KINDS)[number];

/** 32 random bytes as base64url: 43 characters of A-Z, a-z, 0-9, - and _. */
export const FEED_TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The token in a feed URL's last segment (`{token}.ics`), or null when the segment is not one
 * (no `.ics` ending, or not a token's shape): such a URL is answered like an unknown token.
 */
export function feedTokenFromFile(file: string): string | null {
  if (!file.endsWith(".ics")) return null;
  const token = file.slice(0, -".ics".length);
  return TOKEN_PATTERN.test(token) ? token : null;
}

/** The New link forms' intents: the customer's (Profile Settings) and staff's (Sessions tab). */
export const NEW_CALENDAR_LINK = "new-calendar-link";
export const NEW_STUDIO_CALENDAR_LINK = "new-studio-calendar-link";

export type FeedUrls = { https: string; webcal: string };

/** The feed's path on the site. */
export function feedPath(token: string): string {
  return `/calendar/${token}.ics`;
}

/** The https URL (for copying) and the webcal:// one (for a Subscribe link) of a feed. */
export function feedUrls(appUrl: string, token: string | null): FeedUrls | null {
  if (token === null) return null;
  const https = new URL(feedPath(token), appUrl).toString();
  return { https, webcal: https.replace(/^https?:/, "webcal:") };
}

/** How far back a feed lists sessions: a year of past sessions, and every future one. */
export const FEED_PAST_DAYS = 365;

/**
 * What a feed's event is made from: a booking's slot, status and (staff's feed) the client's
 * first name. No surname, phone or e-mail: a feed link lives in calendar apps and their sync.
 */
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
