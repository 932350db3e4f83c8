import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "./env.server";

/**
 * Per-client limits on the account endpoints. The key is the address the server itself saw
 * (or Fly's Fly-Client-IP when TRUST_PROXY is on), never a client-supplied X-Forwarded-For,
 * so a spoofed header cannot buy fresh attempts. One process serves the site, so memory
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
};

export type RateLimitName = keyof typeof limiters;

/** Takes one attempt; returns null when allowed, or the seconds to wait. */
export async function takeAttempt(
  name: RateLimitName,
  clientAddress: string,
): Promise<number | null> {
  try {
    await limiters[name].consume(clientAddress);
    return null;
  } catch (error) {
    if (error instanceof RateLimiterRes) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw error;
  }
}

export function tooManyAttemptsMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
