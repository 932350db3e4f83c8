import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { parseWithZod } from "@conform-to/zod/v4";
import { loginSchema } from "#app/domain/account";
import { getUserById, type PublicUser, toPublicUser, verifyLogin } from "#app/models/user.server";
import { getSessionUserId } from "#app/web/session.server";
import { logEvent } from "#app/log.server";

export class InvalidCredentialsError extends Error {
  constructor() {
    super("Invalid username or password");
  }
}

/**
 * A wrong username or password, for the log: that it happened, under the request's id; not
 * the username (people type their password into it by mistake).
 */
export function logLoginFailed() {
  logEvent("login failed", {}, "warn");
}

/** remix-auth v4 only authenticates; our sessions table (session.server.ts) remembers. */
export const authenticator = new Authenticator<PublicUser>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const submission = parseWithZod(form, { schema: loginSchema });
    if (submission.status !== "success") throw new InvalidCredentialsError();
    const user = await verifyLogin(submission.value.username, submission.value.password);
    if (!user) {
      logLoginFailed();
      throw new InvalidCredentialsError();
    }
    return toPublicUser(user);
  }),
  "form",
);

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
