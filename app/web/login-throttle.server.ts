import { matchingUsername } from "#app/domain/account";
import { env } from "#app/env.server";
import { logEvent } from "#app/log.server";
import { getUserByUsername, verifyLogin } from "#app/models/user.server";
import type { KnownDevice } from "#app/web/known-device.server";
import { addressKey, takeAttempt, tooManyAttemptsMessage } from "#app/web/rate-limit.server";

/** docs/product.md "Accounts and sign-ins". A waiting attempt is refused before the password is looked at, so a right one tells a guesser nothing. */

export const FIRST_WAIT_SECONDS = 60;
export const LONGEST_WAIT_SECONDS = 15 * 60;
export const FORGET_AFTER_SECONDS = 24 * 60 * 60;

type Failures = { count: number; lastAt: number; waitUntil: number };

/** Counted as wrong when let through (cleared if right), so parallel guesses are all counted first. */
export class AccountThrottle {
  private readonly failures = new Map<string, Failures>();
  private takes = 0;

  /** `maxTracked` bounds the memory a spray of made-up usernames can take; the oldest is forgotten. */
  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
    private readonly maxTracked = 100_000,
  ) {}

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

/** 1, 2, 4, 8, 15, 15… minutes. */
export function waitAfter(pastLimit: number): number {
  return Math.min(LONGEST_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** Math.min(pastLimit, 20));
}

export const KNOWN_DEVICE_LIMIT = 5;

const accounts = new AccountThrottle(env.LOGIN_ACCOUNT_LIMIT);
const devices = new AccountThrottle(KNOWN_DEVICE_LIMIT);

/** A known device's own budget: a stranger's guesses cannot lock the owner out. */
function budgetFor(username: string, device: KnownDevice | null) {
  if (device && getUserByUsername(username)?.id === device.userId) {
    return { throttle: devices, key: device.id };
  }
  return { throttle: accounts, key: username };
}

export const INVALID_CREDENTIALS = "Invalid username or password";

type User = NonNullable<Awaited<ReturnType<typeof verifyLogin>>>;

export type PasswordCheck =
  | { ok: true; user: User }
  | { ok: false; status: 401 | 429; message: string; retryAfter: number | null };

function tooMany(retryAfter: number): PasswordCheck {
  return { ok: false, status: 429, message: tooManyAttemptsMessage(retryAfter), retryAfter };
}

/** One 401 message whether the username exists or not. Creates no sign-in: the caller does. */
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
    // Not the username: people type their password into it by mistake.
    logEvent("login failed", {}, "warn");
    return { ok: false, status: 401, message: INVALID_CREDENTIALS, retryAfter: null };
  }
  budget.throttle.clear(budget.key);
  return { ok: true, user };
}
