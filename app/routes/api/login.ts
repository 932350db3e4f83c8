import { TWO_FACTOR_REQUIRED, apiLoginSchema } from "#app/domain/two-factor";
import { toPublicUser, verifyLogin } from "#app/models/user.server";
import { jsonError, methodNotAllowed, readJson } from "#app/web/api.server";
import { takeAttempt, tooManyAttemptsMessage } from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { createUserSession } from "#app/web/session.server";
import { secondFactor } from "#app/web/two-factor.server";
import type { Route } from "./+types/login";

export function loader() {
  return methodNotAllowed("POST");
}

/**
 * POST /api/login {username, password, code?}: the user JSON and a session cookie. An account
 * with two-factor on answers 401 `twoFactorRequired` until the body carries its code (the
 * app's current code or a recovery code).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const clientAddress = context.get(clientAddressContext);
  const retryAfter = await takeAttempt("login", clientAddress);
  if (retryAfter !== null) {
    return jsonError(429, tooManyAttemptsMessage(retryAfter));
  }
  const { username, password, code } = await readJson(request, apiLoginSchema);
  const user = await verifyLogin(username, password);
  // One message whether the username exists or not.
  if (!user) return jsonError(401, "Invalid username or password");

  // The password is verified: from here on, the second factor (docs/product.md "Accounts").
  const second = await secondFactor(user.id, code, clientAddress, TWO_FACTOR_REQUIRED);
  if (!second.ok) {
    const headers = second.retryAfter ? { "Retry-After": String(second.retryAfter) } : undefined;
    return jsonError(second.status, second.message, { twoFactorRequired: true }, headers);
  }
  const cookie = await createUserSession(request, user.id);
  return Response.json(toPublicUser(user), { headers: { "Set-Cookie": cookie } });
}
