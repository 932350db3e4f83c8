import { writeTransaction } from "#app/db.server";
import { replaceFeedTokens } from "#app/models/calendar-feed.server";
import { endOtherSessions } from "#app/models/session.server";

/**
 * "Sign out of all devices" (docs/product.md "Accounts and sessions"): in one transaction every
 * session of the account but the asking one (`keep`, as the sessions table holds it) ends, and
 * every calendar link of the account is replaced, so a lost phone or a leaked link opens nothing.
 */
export function signOutOtherDevices(userId: number, keep: string): void {
  writeTransaction((tx) => {
    endOtherSessions(tx, userId, keep);
    replaceFeedTokens(tx, userId);
  });
}
