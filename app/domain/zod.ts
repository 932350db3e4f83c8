import { z } from "zod";

// zod 4 probes `new Function` to compile fast validators; under our CSP (no 'unsafe-eval')
// that probe is reported as a violation in the browser. Validate without it.
z.config({ jitless: true });

export { z };

/**
 * A required text field. A form posts a blank input as nothing at all (conform reads "" as
 * missing), a JSON client may send a number or null: each of those says `message`, the
 * field's own sentence, never zod's "Invalid input: expected string, received undefined".
 * Text that is only spaces is blank too; that check stops the field's later checks, so a
 * blank field gets one message rather than every rule it also breaks.
 */
export function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, { error: message, abort: true });
}

/**
 * A form with no rules to check: a reply built from it gives the form back as it was typed
 * (the booking form's coupon and free-times posts, and the buttons that post unchecked).
 */
export const keepAsTyped = z.object({});

/**
 * The "now" of a schema's time rules: one instant (a request's clock, the same for every check
 * of it), or a clock read at each check, for a form's schema built once and kept.
 */
export type SchemaNow = number | (() => number);

export function readNow(now: SchemaNow): number {
  return typeof now === "number" ? now : now();
}
