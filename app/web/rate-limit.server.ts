import ipaddr from "ipaddr.js";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "#app/env.server";
import { logEvent } from "#app/log.server";

/**
 * Limits on the account endpoints. Login and registration are limited per client: the key is
 * the address the server itself saw (or Fly's Fly-Client-IP when TRUST_PROXY is on), never a
 * client-supplied X-Forwarded-For, so a spoofed header cannot buy fresh attempts; `addressKey`
 * turns it into the key every per-address limit counts by. The password
 * change is limited per account. One process serves the site, so memory
 * is the right store; LiteFS replicas would need a shared one.
 */
const limiters = {
  login: new RateLimiterMemory({
    keyPrefix: "login",
    points: env.LOGIN_RATE_LIMIT,
    duration: 15 * 60,
  }),
  // Passkey sign-in, per client address: each prompt's challenge and each answer that fails
  // take one; a passkey that signs in gives its answer's back (docs/product.md "Accounts and
  // sign-ins"). Login's budget.
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
  // Wrong current passwords on the password change, per account: a stolen sign-in cookie must
  // not become a way to guess the password (and then change it). Login's budget.
  password: new RateLimiterMemory({
    keyPrefix: "password",
    points: env.LOGIN_RATE_LIMIT,
    duration: 15 * 60,
  }),
  // Coupon lookups (the booking form's Apply and GET /api/coupons/validate), per client address
  // and per account, so codes cannot be guessed by brute force from one place or one login.
  couponLookup: new RateLimiterMemory({
    keyPrefix: "coupon-lookup",
    points: env.COUPON_LOOKUP_LIMIT,
    duration: 15 * 60,
  }),
  // Two-factor codes at sign-in, per account and per client address: six digits must not be
  // guessed by brute force once a password is known (docs/product.md "Accounts and sign-ins").
  twoFactor: new RateLimiterMemory({
    keyPrefix: "two-factor",
    points: env.TWO_FACTOR_CODE_LIMIT,
    duration: 15 * 60,
  }),
  // Booking creation and rescheduling (page forms and the API), per client address and per
  // account: each writes to the calendar and sends mail (docs/product.md "Booking"). Counted
  // in sessions: a series takes one point per session.
  bookingChange: new RateLimiterMemory({
    keyPrefix: "booking-change",
    points: env.BOOKING_RATE_LIMIT,
    duration: 60 * 60,
  }),
  // /booking-success and GET /api/payments/status, per client address: each may ask the
  // payment provider about a checkout.
  paymentStatus: new RateLimiterMemory({
    keyPrefix: "payment-status",
    points: env.PAYMENT_STATUS_LIMIT,
    duration: 15 * 60,
  }),
  // Calendar feed fetches (GET /calendar/{token}.ics), per feed token and per client address:
  // calendar apps poll about hourly, so a feed asked far more often is a misbehaving client
  // (docs/product.md "Calendar feeds").
  calendarFeed: new RateLimiterMemory({
    keyPrefix: "calendar-feed",
    points: env.CALENDAR_FEED_LIMIT,
    duration: 60 * 60,
  }),
};

export type RateLimitName = keyof typeof limiters;

/**
 * The key a client address is counted by, for every per-address limit: an IPv4 address as it
 * is (also when it arrives IPv4-mapped, ::ffff:203.0.113.5), an IPv6 address by its /64 (one
 * customer's connection is given a whole /64, so counting single addresses would hand out
 * 2^64 fresh budgets). Anything unparsable is counted as it was given.
 */
export function addressKey(clientAddress: string): string {
  if (!ipaddr.isValid(clientAddress)) return clientAddress;
  const address = ipaddr.process(clientAddress);
  if (address.kind() === "ipv4") return address.toString();
  const network = [...(address as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0];
  return `${new ipaddr.IPv6(network).toString()}/64`;
}

/** Takes one attempt (or `points`); returns null when allowed, or the seconds to wait. */
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

/** Gives back an attempt taken for a request that turned out right (a correct password). */
export async function giveBackAttempt(name: RateLimitName, key: string): Promise<void> {
  await limiters[name].reward(key, 1);
}

export function tooManyAttemptsMessage(retryAfterSeconds: number) {
  return `Too many attempts. ${retryIn(retryAfterSeconds)}`;
}

/**
 * Takes one coupon lookup from the client address's budget and, when signed in, the account's;
 * null when both allow it, else the seconds to wait (the longer of the two).
 */
export function takeCouponLookup(
  clientAddress: string,
  userId: number | null,
): Promise<number | null> {
  return takeForAddressAndAccount("couponLookup", clientAddress, userId);
}

/** One two-factor code tried for `userId` from `clientAddress` (TWO_FACTOR_CODE_LIMIT each). */
export function takeTwoFactorAttempt(clientAddress: string, userId: number) {
  return takeForAddressAndAccount("twoFactor", clientAddress, userId);
}

export function tooManyCouponLookupsMessage(retryAfterSeconds: number) {
  return `Too many coupon codes tried. ${retryIn(retryAfterSeconds)}`;
}

/**
 * Takes one attempt from the client address's budget (an IPv6 address by its /64) and, when
 * signed in, the account's; null when both allow it, else the seconds to wait (the longer).
 */
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

/**
 * A booking of `sessions` sessions (a series counts each one) or one reschedule, from the
 * address's and the account's BOOKING_RATE_LIMIT; null when both budgets have room for all of
 * them, else the seconds to wait (the longer). A request that does not fit is refused whole and
 * writes nothing, so it spends nothing: what it took is given back to both budgets, and a
 * single booking may still use what a series too big for the rest left.
 */
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

/** One payment-status check (success page or API), from the address's PAYMENT_STATUS_LIMIT. */
export function takePaymentStatusCheck(clientAddress: string) {
  return takeForAddressAndAccount("paymentStatus", clientAddress, null);
}

/**
 * One calendar feed fetch, from the client address's CALENDAR_FEED_LIMIT and, for a known
 * feed, the feed token's; null when both allow it, else the seconds to wait.
 */
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

/**
 * A page route's `headers`: the Retry-After of a limited action or loader reaches the document
 * response too, not only the `.data` request of a browser with JavaScript.
 */
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
