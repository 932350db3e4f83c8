import { getUserById, type PublicUser, toPublicUser } from "#app/models/user.server";
import { getSessionUserId } from "#app/web/session.server";

// Credentials are checked by app/web/login-throttle.server.ts (behind the login limits).

/**
 * Reads the session behind the request's cookie. Handlers never call this: they ask
 * `getUser` of user-context.server.ts, which does it once per request and shares the answer.
 */
export async function findSessionUser(request: Request): Promise<PublicUser | null> {
  const userId = await getSessionUserId(request);
  if (userId === null) return null;
  const user = getUserById(userId);
  return user ? toPublicUser(user) : null;
}
