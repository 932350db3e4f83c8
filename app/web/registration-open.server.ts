import { anyAdminExists } from "#app/models/user.server";

/**
 * Public registration waits for the first admin (docs/product.md "Accounts and sign-ins"): on
 * a fresh deploy, a stranger could otherwise take the name the owner is about to give
 * create-admin, or be the only account there is.
 */
export const REGISTRATION_NOT_OPEN =
  "Sign-ups are not open yet: the studio is still being set up. Please try again later.";

/** Our refusal while no admin exists, else null. */
export function registrationClosedMessage(): string | null {
  return anyAdminExists() ? null : REGISTRATION_NOT_OPEN;
}
