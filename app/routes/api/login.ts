import { loginSchema } from "#app/domain/account";
import { toPublicUser, verifyLogin } from "#app/models/user.server";
import { jsonError, methodNotAllowed, readJson } from "#app/web/api.server";
import { logLoginFailed } from "#app/web/auth.server";
import { takeAttempt, tooManyAttemptsMessage } from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { createUserSession } from "#app/web/session.server";
import type { Route } from "./+types/login";

export function loader() {
  return methodNotAllowed("POST");
}

/** POST /api/login {username, password}: the user JSON and a session cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const retryAfter = await takeAttempt("login", context.get(clientAddressContext));
  if (retryAfter !== null) {
    return jsonError(429, tooManyAttemptsMessage(retryAfter));
  }
  const { username, password } = await readJson(request, loginSchema);
  const user = await verifyLogin(username, password);
  // One message whether the username exists or not.
  if (!user) {
    logLoginFailed();
    return jsonError(401, "Invalid username or password");
  }
  const cookie = await createUserSession(request, user.id);
  return Response.json(toPublicUser(user), { headers: { "Set-Cookie": cookie } });
}
