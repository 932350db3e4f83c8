import { env } from "#app/env.server";
import { hasPasskey } from "#app/models/passkey.server";
import { hasTwoFactor } from "#app/models/two-factor.server";

/**
 * The one staff gate (docs/product.md "Accounts and sign-ins"). Every path that gives staff
 * more than a customer gets asks it, through user-context.server.ts for requests with a sign-in
 * and `studioFeedOwnerAdmitted` for the studio calendar feed, which has none. Nothing else reads
 * `isAdmin` to grant anything.
 */

/**
 * - "staff": an admin who may act as staff on this request;
 * - "staff without second factor": an admin held back until this sign-in proves a second factor
 *   (sent to set up two-factor on pages, 403 on admin JSON, a customer like any other elsewhere);
 * - "not staff": a customer (or a visitor).
 */
export type StaffAccess = "staff" | "staff without second factor" | "not staff";

/**
 * Staff pass when REQUIRE_STAFF_2FA is off, or when this sign-in proved a second
 * factor (a two-factor or recovery code, a passkey, or two-factor turned on in it).
 */
export function staffAccess(
  user: { isAdmin: boolean } | null,
  signInProvedSecondFactor: boolean,
): StaffAccess {
  if (!user?.isAdmin) return "not staff";
  return !env.REQUIRE_STAFF_2FA || signInProvedSecondFactor
    ? "staff"
    : "staff without second factor";
}

/** Whether staff must have two-factor sign-in on (and so may not turn it off). */
export function mustKeepSecondFactor(user: { isAdmin: boolean }): boolean {
  return user.isAdmin && env.REQUIRE_STAFF_2FA;
}

/**
 * The studio feed's owner, asked on every fetch (a calendar app sends no sign-in): still staff,
 * and, when REQUIRE_STAFF_2FA is on, with a second factor on the account (two-factor sign-in or
 * a passkey), so a feed made before the rule dies with it.
 */
export function studioFeedOwnerAdmitted(owner: { id: number; isAdmin: boolean }): boolean {
  if (!owner.isAdmin) return false;
  return !env.REQUIRE_STAFF_2FA || hasTwoFactor(owner.id) || hasPasskey(owner.id);
}
