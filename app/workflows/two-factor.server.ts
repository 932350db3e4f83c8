import { writeTransaction } from "#app/db.server";
import { newRecoveryCodes } from "#app/models/recovery-codes.server";
import { firstCodeStep, turnOffTwoFactor, turnOnTwoFactor } from "#app/models/two-factor.server";

/**
 * Turning two-factor sign-in on and off (docs/product.md "Accounts and sign-ins"): the users row
 * and the recovery codes change together.
 */

/**
 * Turns two-factor on with the app's first code, which must match the waiting secret: returns
 * the ten recovery codes to show once, or null when the code is wrong (nothing written then).
 */
export async function confirmTwoFactor(
  userId: number,
  code: string,
  now = Date.now(),
): Promise<string[] | null> {
  const first = await firstCodeStep(userId, code, now);
  if (!first) return null;
  const codes = newRecoveryCodes();
  const turnedOn = writeTransaction((tx) => turnOnTwoFactor(tx, userId, first, codes, now));
  return turnedOn ? codes : null;
}

/** Turns two-factor off (the owner, or staff resetting it). */
export function disableTwoFactor(userId: number): void {
  writeTransaction((tx) => turnOffTwoFactor(tx, userId));
}
