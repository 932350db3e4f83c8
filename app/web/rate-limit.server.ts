import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "#app/env.server";
import { logEvent } from "#app/log.server";

/**
 * Limits on the account endpoints. Login and registration are limited per client: the key is
 * the address the server itself saw (or Fly's Fly-Client-IP when TRUST_PROXY is on), never a
 * client-supplied X-Forwarded-For, so a spoofed header cannot buy fresh attempts. The password
 * change is limited per account. One process serves the site, so memory
 * is the right store; LiteFS replicas would need a shared one.
 */
const limiters = {
  login: new RateLimiterMemory({
    keyPrefix: "login",
    points: env.LOGIN_RATE_LIMIT,
    duration: 15 * 60,
  }),
  register: new RateLimiterMemory({
    keyPrefix: "register",
    points: env.REGISTER_RATE_LIMIT,
    duration: 60 * 60,
  }),
  // Wrong current passwords on the password change, per account: a stolen session cookie must
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
};

export type RateLimitName = keyof typeof limiters;

/** Takes one attempt; returns null when allowed, or the seconds to wait. */
export async function takeAttempt(name: RateLimitName, key: string): Promise<number | null> {
  try {
    await limiters[name].consume(key);
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
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * Takes one coupon lookup from the client address's budget and, when signed in, the account's;
 * null when both allow it, else the seconds to wait (the longer of the two).
 */
export async function takeCouponLookup(
  clientAddress: string,
  userId: number | null,
): Promise<number | null> {
  const waits = await Promise.all([
    takeAttempt("couponLookup", `address:${clientAddress}`),
    userId === null ? null : takeAttempt("couponLookup", `account:${userId}`),
  ]);
  const wait = Math.max(...waits.map((seconds) => seconds ?? 0));
  return wait > 0 ? wait : null;
}

export function tooManyCouponLookupsMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many coupon codes tried. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
