import { FormStrategy } from "remix-auth-form";
import { getUserById, type PublicUser, toPublicUser } from "#app/models/user.server";
import { checkLoginPassword, type PasswordCheck } from "#app/web/login-throttle.server";
import { knownDevice } from "#app/web/known-device.server";
import { getSignedIn } from "#app/web/sign-in.server";

/** The strategy is called directly: remix-auth's Authenticator would pass a copy of the request, which the address could not be looked up by. */
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

export function authenticateLoginForm(
  request: Request,
  clientAddress: string,
): Promise<PasswordCheck> {
  clientAddresses.set(request, clientAddress);
  return loginForm.authenticate(request);
}

export type SignedInUser = { user: PublicUser; secondFactor: boolean };

/** Handlers never call this: they ask user-context.server.ts, once per request. */
export async function findSignedInUser(request: Request): Promise<SignedInUser | null> {
  const signedIn = await getSignedIn(request);
  if (!signedIn) return null;
  const user = getUserById(signedIn.userId);
  return user ? { user: toPublicUser(user), secondFactor: signedIn.secondFactor } : null;
}
