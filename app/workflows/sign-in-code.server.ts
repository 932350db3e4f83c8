import { db, unlessBusy } from "#app/db.server";
import { codeIsChecked, wrongCodeAlert } from "#app/domain/two-factor";
import { signInCodeAlertEmail } from "#app/emails/templates.server";
import { enqueueEmail } from "#app/models/outbox.server";
import {
  clearCodeFailures,
  countCodeAttempt,
  spendSecondFactor,
} from "#app/models/two-factor.server";
import { getUserById } from "#app/models/user.server";

export type SignInCodeResult = "totp" | "recovery" | "wrong" | "frozen";

/**
 * A sign-in code of an account whose password was just verified (docs/product.md "Accounts and
 * sign-ins"). It is counted as wrong before it is checked, so guesses sent together all count;
 * once `freezeAfter` wrong codes in a row are counted the app's codes are refused, the right
 * one too, and only a recovery code signs in. A right code clears the count. The owner is
 * e-mailed on the first wrong code of a run and when the codes freeze.
 */
export async function proveSignInCode(
  userId: number,
  code: string,
  options: { freezeAfter: number; appUrl: string },
  now = Date.now(),
): Promise<SignInCodeResult> {
  const failures = countCodeAttempt(userId);
  if (failures === null) return "wrong";
  if (!codeIsChecked(failures, options.freezeAfter, code)) return "frozen";
  const kind = await spendSecondFactor(userId, code, now);
  if (kind) {
    clearCodeFailures(userId);
    return kind;
  }
  const alert = wrongCodeAlert(failures, options.freezeAfter);
  const user = getUserById(userId);
  if (alert && user) {
    unlessBusy(() =>
      enqueueEmail(db, {
        kind: `two-factor-${alert}`,
        to: user.email,
        ...signInCodeAlertEmail({
          alert,
          firstName: user.firstName,
          freezeAfter: options.freezeAfter,
          profileUrl: `${options.appUrl}/dashboard?tab=profile`,
        }),
      }),
    );
  }
  return failures >= options.freezeAfter ? "frozen" : "wrong";
}
