import { FormStrategy } from "remix-auth-form";
import { getUserById, type PublicUser, toPublicUser } from "#app/models/user.server";
import { checkLoginPassword, type PasswordCheck } from "#app/web/login-throttle.server";
import { knownDevice } from "#app/web/known-device.server";
import { getSignedIn } from "#app/web/sign-in.server";

/**
 * The login page's credentials go through remix-auth's form strategy, which reads the posted
 * form; the check itself is checkLoginPassword's, behind the login limits (shared with
 * POST /api/login, which reads JSON). The strategy answers the check, verified or refused, so
 * the route decides what comes next (the second factor, or the sign-in). Our sign_ins table
 * (sign-in.server.ts) remembers; remix-auth v4 only authenticates.
 *
 * The limits need the client address, which the request alone does not carry (the proxy's
 * header is trusted only with TRUST_PROXY), so the route hands it over for its own request.
 * The strategy is called directly: remix-auth's Authenticator would pass it a copy of the
 * request, which the address could not be looked up by.
 */
const clientAddresses = new WeakMap<Request, string>();

const loginForm = new FormStrategy<PasswordCheck>(async ({ form, request }) => {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const clientAddress = clientAddresses.get(request);
  if (clientAddress === undefined) throw new Error("authenticateLoginForm sets the address");
  const device = await knownDevice(request);
  return checkLoginPassword(clientAddress, field("username"), field("password"), device);
});

/** Checks the login form of `request` (its body unread) as coming from `clientAddress`. */
export function authenticateLoginForm(
  request: Request,
  clientAddress: string,
): Promise<PasswordCheck> {
  clientAddresses.set(request, clientAddress);
  return loginForm.authenticate(request);
}

/** A signed-in user, and whether their sign-in proved a second factor. */
export type SignedInUser = { user: PublicUser; secondFactor: boolean };

/**
 * Reads the sign-in behind the request's cookie. Handlers never call this: they ask
 * user-context.server.ts, which does it once per request and shares the answer.
 */
export async function findSignedInUser(request: Request): Promise<SignedInUser | null> {
  const signedIn = await getSignedIn(request);
  if (!signedIn) return null;
  const user = getUserById(signedIn.userId);
  return user ? { user: toPublicUser(user), secondFactor: signedIn.secondFactor } : null;
}
