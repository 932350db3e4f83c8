import { writeTransaction } from "#app/db.server";
import { WRONG_CURRENT_PASSWORD } from "#app/domain/account";
import { Refusal } from "#app/domain/refusal";
import { env } from "#app/env.server";
import { replaceFeedTokens } from "#app/models/calendar-feed.server";
import { restartUserSignIns } from "#app/models/sign-in.server";
import {
  getUserById,
  hashPassword,
  passwordMatches,
  replacePasswordHash,
} from "#app/models/user.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A customer changes their password (Profile Settings): once the current one is proven, the
 * new hash is stored, every sign-in of the user ends, a fresh one starts for the caller
 * (changing the password ends other sign-ins) and the calendar links are replaced. Verifying and hashing happen before the
 * transaction: an await inside it would hold the write lock. Answers the fresh sign-in's id.
 */
export async function changePassword(
  userId: number,
  currentPassword: string,
  newPassword: string,
  secondFactor: boolean,
): Promise<string> {
  const wrong = new Refusal("wrong-password", WRONG_CURRENT_PASSWORD);
  const user = getUserById(userId);
  if (!user || !(await passwordMatches(user.passwordHash, currentPassword))) throw wrong;
  const passwordHash = await hashPassword(newPassword);
  return writeTransaction((tx) => {
    // Another change landed while this one was hashing: the password proven above is no
    // longer the current one, so this change must not overwrite that one.
    if (!replacePasswordHash(tx, userId, user.passwordHash, passwordHash)) throw wrong;
    // A calendar link copied with the old password stops working with it.
    replaceFeedTokens(tx, userId);
    // The fresh sign-in lasts as long as a login's (web/sign-in.server.ts's cookie max-age).
    const expiresAt = Date.now() + env.SESSION_MAX_AGE_DAYS * DAY_MS;
    return restartUserSignIns(tx, userId, expiresAt, secondFactor);
  });
}
