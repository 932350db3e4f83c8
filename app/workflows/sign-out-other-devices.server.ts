import { writeTransaction } from "#app/db.server";
import { replaceFeedTokens } from "#app/models/calendar-feed.server";
import { endOtherSignIns } from "#app/models/sign-in.server";

/**
 * "Sign out of all devices" (docs/product.md "Accounts and sign-ins"): in one transaction every
 * sign-in of the account but the asking one (`keep`, as the sign_ins table holds it) ends, and
 * every calendar link of the account is replaced, so a lost phone or a leaked link opens nothing.
 */
export function signOutOtherDevices(userId: number, keep: string): void {
  writeTransaction((tx) => {
    endOtherSignIns(tx, userId, keep);
    replaceFeedTokens(tx, userId);
  });
}
