import { loginSchema } from "#app/domain/account";
import { toPublicUser } from "#app/models/user.server";
import { jsonError, methodNotAllowed, readJson } from "#app/web/api.server";
import { checkLoginPassword } from "#app/web/login-throttle.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { createUserSession } from "#app/web/session.server";
import type { Route } from "./+types/login";

export function loader() {
  return methodNotAllowed("POST");
}

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = loginSchema;

/** POST /api/login {username, password}: the user JSON and a session cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const { username, password } = await readJson(request, jsonBody);
  // The password step, behind the per-address and per-username limits: one 401 message whether
  // the username exists or not, one 429 whether the password was right or not.
  const check = await checkLoginPassword(context.get(clientAddressContext), username, password);
  if (check.status === "refused") {
    return jsonError(
      check.httpStatus,
      check.message,
      undefined,
      check.retryAfter === null ? undefined : { "Retry-After": String(check.retryAfter) },
    );
  }
  const cookie = await createUserSession(request, check.user.id);
  return Response.json(toPublicUser(check.user), { headers: { "Set-Cookie": cookie } });
}
