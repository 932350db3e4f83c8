import { matchingUsername } from "#app/domain/account";
import { env } from "#app/env.server";
import { logEvent } from "#app/log.server";
import { getUserByUsername, verifyLogin } from "#app/models/user.server";
import type { KnownDevice } from "#app/web/known-device.server";
import { addressKey, takeAttempt, tooManyAttemptsMessage } from "#app/web/rate-limit.server";

/**
 * Login's password step, the one place both entry points (the login page's action and
 * POST /api/login) check a username and password (docs/product.md "Accounts and sign-ins").
 *
 * Two limits stand before the password is checked:
 * - per client address (LOGIN_RATE_LIMIT per 15 minutes, IPv6 by its /64), and
 * - per username, from whatever addresses, whether or not the account exists: after
 *   LOGIN_ACCOUNT_LIMIT wrong passwords each further attempt waits, 1 minute and then twice as
 *   long after every further wrong one, up to 15 minutes. A right password clears the count.
 *
 * A browser that signed in to the account before (a known device, known-device.server.ts) is
 * counted by its own budget instead of the username's: KNOWN_DEVICE_LIMIT wrong passwords, then
 * the same growing wait. A stranger's guesses therefore cannot lock the owner out, and a copied
 * device cookie buys only its own small budget, for its one account.
 *
 * An attempt that must wait is refused before the password is looked at, so a right password
 * gets the very same 429 as a wrong one, as fast: the refusal tells a guesser nothing.
 */

export const FIRST_WAIT_SECONDS = 60;
export const LONGEST_WAIT_SECONDS = 15 * 60;
/** Wrong passwords are forgotten this long after the last one. */
export const FORGET_AFTER_SECONDS = 24 * 60 * 60;

type Failures = { count: number; lastAt: number; waitUntil: number };

/**
 * The per-username count, in memory like the other limits (one process serves the site). An
 * attempt is counted as wrong when it is let through (and cleared if it was right), so guesses
 * sent in parallel are all counted before any password is checked.
 */
export class AccountThrottle {
  private readonly failures = new Map<string, Failures>();
  private takes = 0;

  /**
   * `maxTracked` bounds the memory a spray of made-up usernames can take (about 100 bytes
   * each); past it the longest-tracked username is forgotten. Pushing a real account out that
   * way takes that many attempts, which the per-address limit makes cost as many addresses.
   */
  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
    private readonly maxTracked = 100_000,
  ) {}

  /** Lets one attempt through (counting it as wrong) and answers null, or the seconds to wait. */
  take(username: string): number | null {
    const key = matchingUsername(username);
    const now = this.now();
    if (++this.takes % 1000 === 0) this.forgetOld(now);
    let entry = this.failures.get(key);
    if (!entry || now - entry.lastAt > FORGET_AFTER_SECONDS * 1000) {
      if (!entry && this.failures.size >= this.maxTracked) {
        // A Map iterates in insertion order: the first key is the longest tracked.
        const oldest = this.failures.keys().next();
        if (!oldest.done) this.failures.delete(oldest.value);
      }
      entry = { count: 0, lastAt: now, waitUntil: 0 };
      this.failures.set(key, entry);
    }
    if (now < entry.waitUntil) return Math.ceil((entry.waitUntil - now) / 1000);
    entry.count += 1;
    entry.lastAt = now;
    if (entry.count >= this.limit) {
      entry.waitUntil = now + waitAfter(entry.count - this.limit) * 1000;
    }
    return null;
  }

  /** A right password: the username starts afresh. */
  clear(username: string): void {
    this.failures.delete(matchingUsername(username));
  }

  private forgetOld(now: number) {
    for (const [key, entry] of this.failures) {
      if (now - entry.lastAt > FORGET_AFTER_SECONDS * 1000 && now >= entry.waitUntil) {
        this.failures.delete(key);
      }
    }
  }
}

/** The wait after the limit's wrong password and each one past it: 1, 2, 4, 8, 15, 15… minutes. */
export function waitAfter(pastLimit: number): number {
  return Math.min(LONGEST_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** Math.min(pastLimit, 20));
}

/** Wrong passwords a known device may try for its account before each further one waits. */
export const KNOWN_DEVICE_LIMIT = 5;

const accounts = new AccountThrottle(env.LOGIN_ACCOUNT_LIMIT);
// Keyed by the device's random id (hex, which the username matching leaves as it is).
const devices = new AccountThrottle(KNOWN_DEVICE_LIMIT);

/**
 * The budget a login is counted by: the device's when it carries a device cookie for the
 * account of the username typed, else the username's.
 */
function budgetFor(username: string, device: KnownDevice | null) {
  if (device && getUserByUsername(username)?.id === device.userId) {
    return { throttle: devices, key: device.id };
  }
  return { throttle: accounts, key: username };
}

export const INVALID_CREDENTIALS = "Invalid username or password";

type User = NonNullable<Awaited<ReturnType<typeof verifyLogin>>>;

export type PasswordCheck =
  | { status: "verified"; user: User }
  | { status: "refused"; httpStatus: 401 | 429; message: string; retryAfter: number | null };

function tooMany(retryAfter: number): PasswordCheck {
  return {
    status: "refused",
    httpStatus: 429,
    message: tooManyAttemptsMessage(retryAfter),
    retryAfter,
  };
}

/**
 * Checks a login's username and password behind both limits (the per-username one, or the
 * device's for a known device of that account): the verified user, or the refusal
 * to answer (401 with one message whether the username exists or not, or 429 with the wait).
 * It creates no sign-in: the caller does, after any further step.
 */
export async function checkLoginPassword(
  clientAddress: string,
  username: string,
  password: string,
  device: KnownDevice | null,
): Promise<PasswordCheck> {
  const addressWait = await takeAttempt("login", addressKey(clientAddress));
  if (addressWait !== null) return tooMany(addressWait);
  const budget = budgetFor(username, device);
  const accountWait = budget.throttle.take(budget.key);
  if (accountWait !== null) {
    const limit = budget.throttle === devices ? "loginDevice" : "loginAccount";
    logEvent("rate limit hit", { limit }, "warn");
    return tooMany(accountWait);
  }
  const user = await verifyLogin(username, password);
  if (!user) {
    // That it happened, under the request's id; not the username (people type their password
    // into it by mistake).
    logEvent("login failed", {}, "warn");
    return { status: "refused", httpStatus: 401, message: INVALID_CREDENTIALS, retryAfter: null };
  }
  budget.throttle.clear(budget.key);
  return { status: "verified", user };
}
