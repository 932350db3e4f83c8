import { z } from "zod";

// Without `new Function` probes, which our CSP (no 'unsafe-eval') reports as violations.
z.config({ jitless: true });

export { z };

/**
 * A blank input, a missing field, a number or null all say the field's own `message`, never zod's
 * "expected string"; a blank field gets that one message rather than every rule it breaks.
 */
export function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, { error: message, abort: true });
}

/** Gives a form back as it was typed (the coupon and free-times posts, unchecked buttons). */
export const keepAsTyped = z.object({});

/** One instant per request, or a clock read at each check for a schema built once. */
export type SchemaNow = number | (() => number);

export function readNow(now: SchemaNow): number {
  return typeof now === "number" ? now : now();
}
