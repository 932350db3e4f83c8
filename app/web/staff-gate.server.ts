import { env } from "#app/env.server";
import { hasPasskey } from "#app/models/passkey.server";
import { hasTwoFactor } from "#app/models/two-factor.server";

/** docs/product.md "Accounts and sign-ins": the one staff gate; nothing else reads `isAdmin` to grant anything. */

/** "staff without second factor": held back until this sign-in proves one; a customer like any other elsewhere. */
export type StaffAccess = "staff" | "staff without second factor" | "not staff";

export function staffAccess(
  user: { isAdmin: boolean } | null,
  signInProvedSecondFactor: boolean,
): StaffAccess {
  if (!user?.isAdmin) return "not staff";
  return !env.REQUIRE_STAFF_2FA || signInProvedSecondFactor
    ? "staff"
    : "staff without second factor";
}

export function mustKeepSecondFactor(user: { isAdmin: boolean }): boolean {
  return user.isAdmin && env.REQUIRE_STAFF_2FA;
}

/** A calendar app sends no sign-in, so the owner is checked on every fetch: a feed made before the rule dies with it. */
export function studioFeedOwnerAdmitted(owner: { id: number; isAdmin: boolean }): boolean {
  if (!owner.isAdmin) return false;
  return !env.REQUIRE_STAFF_2FA || hasTwoFactor(owner.id) || hasPasskey(owner.id);
}
