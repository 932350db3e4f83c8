import { redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { parseWithZod } from "@conform-to/zod/v4";
import { loginSchema } from "#app/domain/account";
import { getUserById, type PublicUser, toPublicUser, verifyLogin } from "#app/models/user.server";
import { getSessionUserId } from "#app/web/session.server";

export class InvalidCredentialsError extends Error {
  constructor() {
    super("Invalid username or password");
  }
}

/** remix-auth v4 only authenticates; our sessions table (session.server.ts) remembers. */
export const authenticator = new Authenticator<PublicUser>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const submission = parseWithZod(form, { schema: loginSchema });
    if (submission.status !== "success") throw new InvalidCredentialsError();
    const user = await verifyLogin(submission.value.username, submission.value.password);
    if (!user) throw new InvalidCredentialsError();
    return toPublicUser(user);
  }),
  "form",
);

export async function getUser(request: Request): Promise<PublicUser | null> {
  const userId = await getSessionUserId(request);
  if (userId === null) return null;
  const user = getUserById(userId);
  return user ? toPublicUser(user) : null;
}

/** Pages: a visitor is sent to sign in. */
export async function requireUser(request: Request): Promise<PublicUser> {
  const user = await getUser(request);
  if (!user) throw redirect("/auth");
  return user;
}

/** Pages: a visitor goes to /auth, a signed-in customer to /dashboard. */
export async function requireAdmin(request: Request): Promise<PublicUser> {
  const user = await requireUser(request);
  if (!user.isAdmin) throw redirect("/dashboard");
  return user;
}

/** Pages only for visitors (/auth): a signed-in user goes home. */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getUser(request)) throw redirect("/");
}

/** JSON endpoints answer 401 instead of redirecting. */
export async function requireApiUser(request: Request): Promise<PublicUser> {
  const user = await getUser(request);
  if (!user) throw Response.json({ message: "Not authenticated" }, { status: 401 });
  return user;
}

/** Admin JSON (spec section 7): 401 for a visitor, 403 for a signed-in customer. */
export async function requireApiAdmin(request: Request): Promise<PublicUser> {
  const user = await requireApiUser(request);
  if (!user.isAdmin) throw Response.json({ message: "Admins only" }, { status: 403 });
  return user;
}
