import ipaddr from "ipaddr.js";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "#app/env.server";
import { logEvent } from "#app/log.server";

/** The key is the address the server saw (or Fly-Client-IP with TRUST_PROXY), never X-Forwarded-For. In memory: one process. */
const limiters = {
  login: new RateLimiterMemory({
    keyPrefix: "login",
    points: env.LOGIN_RATE_LIMIT,
    duration: 15 * 60,
  }),
  // docs/product.md "Accounts and sign-ins": a passkey that signs in gives its answer's point back.
  passkeySignIn: new RateLimiterMemory({
    keyPrefix: "passkey-sign-in",
    points: env.LOGIN_RATE_LIMIT,
    duration: 15 * 60,
  }),
  register: new RateLimiterMemory({
    keyPrefix: "register",
    points: env.REGISTER_RATE_LIMIT,
    duration: 60 * 60,
  }),
  // A stolen sign-in cookie must not become a way to guess the password.
  password: new RateLimiterMemory({
    keyPrefix: "password",
    points: env.LOGIN_RATE_LIMIT,
    duration: 15 * 60,
  }),
  // Per address and per account, so codes cannot be brute-forced from one place or one login.
  couponLookup: new RateLimiterMemory({
    keyPrefix: "coupon-lookup",
    points: env.COUPON_LOOKUP_LIMIT,
    duration: 15 * 60,
  }),
  // docs/product.md "Accounts and sign-ins": six digits must not be brute-forced once a password is known.
  twoFactor: new RateLimiterMemory({
    keyPrefix: "two-factor",
    points: env.TWO_FACTOR_CODE_LIMIT,
    duration: 15 * 60,
  }),
  // docs/product.md "Booking": each writes to the calendar and sends mail. A series takes one point per session.
  bookingChange: new RateLimiterMemory({
    keyPrefix: "booking-change",
    points: env.BOOKING_RATE_LIMIT,
    duration: 60 * 60,
  }),
  // Each may ask the payment provider about a checkout.
  paymentStatus: new RateLimiterMemory({
    keyPrefix: "payment-status",
    points: env.PAYMENT_STATUS_LIMIT,
    duration: 15 * 60,
  }),
  // docs/product.md "Calendar feeds": apps poll about hourly; far more often is a misbehaving client.
  calendarFeed: new RateLimiterMemory({
    keyPrefix: "calendar-feed",
    points: env.CALENDAR_FEED_LIMIT,
    duration: 60 * 60,
  }),
};

export type RateLimitName = keyof typeof limiters;

/** An IPv6 address counts by its /64: a customer is given a whole /64. */
export function addressKey(clientAddress: string): string {
  if (!ipaddr.isValid(clientAddress)) return clientAddress;
  const address = ipaddr.process(clientAddress);
  if (address.kind() === "ipv4") return address.toString();
  const network = [...(address as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0];
  return `${new ipaddr.IPv6(network).toString()}/64`;
}

/** Returns null when allowed, or the seconds to wait. */
export async function takeAttempt(
  name: RateLimitName,
  key: string,
  points = 1,
): Promise<number | null> {
  try {
    await limiters[name].consume(key, points);
    return null;
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      // The limit's name only: its key is a client address or an account.
      logEvent("rate limit hit", { limit: name }, "warn");
      return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    }
    throw error;
  }
}

export async function giveBackAttempt(name: RateLimitName, key: string): Promise<void> {
  await limiters[name].reward(key, 1);
}

export function tooManyAttemptsMessage(retryAfterSeconds: number) {
  return `Too many attempts. ${retryIn(retryAfterSeconds)}`;
}

export function takeCouponLookup(
  clientAddress: string,
  userId: number | null,
): Promise<number | null> {
  return takeForAddressAndAccount("couponLookup", clientAddress, userId);
}

export function takeTwoFactorAttempt(clientAddress: string, userId: number) {
  return takeForAddressAndAccount("twoFactor", clientAddress, userId);
}

export function tooManyCouponLookupsMessage(retryAfterSeconds: number) {
  return `Too many coupon codes tried. ${retryIn(retryAfterSeconds)}`;
}

/** Null when both allow it, else the seconds to wait (the longer). */
async function takeForAddressAndAccount(
  name: RateLimitName,
  clientAddress: string,
  userId: number | null,
): Promise<number | null> {
  const waits = await Promise.all([
    takeAttempt(name, `address:${addressKey(clientAddress)}`),
    userId === null ? null : takeAttempt(name, `account:${userId}`),
  ]);
  const wait = Math.max(...waits.map((seconds) => seconds ?? 0));
  return wait > 0 ? wait : null;
}

function retryIn(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** A request that does not fit is refused whole and spends nothing: what it took is given back. */
export async function takeBookingChange(clientAddress: string, userId: number, sessions = 1) {
  const keys = [`address:${addressKey(clientAddress)}`, `account:${userId}`];
  const waits = await Promise.all(keys.map((key) => takeAttempt("bookingChange", key, sessions)));
  const wait = Math.max(...waits.map((seconds) => seconds ?? 0));
  if (wait === 0) return null;
  await Promise.all(keys.map((key) => limiters.bookingChange.reward(key, sessions)));
  return wait;
}

export function tooManyBookingChangesMessage(retryAfterSeconds: number) {
  return `Too many bookings and changes in a short time. ${retryIn(retryAfterSeconds)}`;
}

export function takePaymentStatusCheck(clientAddress: string) {
  return takeForAddressAndAccount("paymentStatus", clientAddress, null);
}

export async function takeCalendarFeedFetch(
  clientAddress: string,
  token: string | null,
): Promise<number | null> {
  const waits = await Promise.all([
    takeAttempt("calendarFeed", `address:${addressKey(clientAddress)}`),
    token === null ? null : takeAttempt("calendarFeed", `token:${token}`),
  ]);
  const wait = Math.max(...waits.map((seconds) => seconds ?? 0));
  return wait > 0 ? wait : null;
}

export function tooManyFeedFetchesMessage(retryAfterSeconds: number) {
  return `Too many calendar requests. ${retryIn(retryAfterSeconds)}`;
}

export function tooManyPaymentChecksMessage(retryAfterSeconds: number) {
  return `Too many payment checks. ${retryIn(retryAfterSeconds)}`;
}

/** The Retry-After reaches the document response too, not only the `.data` request. */
export function retryAfterHeaders({
  actionHeaders,
  loaderHeaders,
}: {
  actionHeaders: Headers;
  loaderHeaders: Headers;
}): HeadersInit {
  const retryAfter = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : {};
}
