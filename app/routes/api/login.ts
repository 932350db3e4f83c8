import { apiLoginSchema, TWO_FACTOR_REQUIRED } from "#app/domain/two-factor";
import { toPublicUser } from "#app/models/user.server";
import { jsonError, readJson, describedMethodsOnly } from "#app/web/api.server";
import { checkLoginPassword } from "#app/web/login-throttle.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { knownDevice, signedInHeaders } from "#app/web/known-device.server";
import { secondFactor } from "#app/routes/second-factor.server";
import type { Route } from "./+types/login";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { z } from "#app/domain/zod";

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = apiLoginSchema;

/**
 * POST /api/login {username, password, code?}: the user JSON and a sign-in cookie. An account
 * with two-factor on answers 401 `twoFactorRequired` until the body carries its code (the
 * app's current code or a recovery code).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const clientAddress = context.get(clientAddressContext);
  const { username, password, code } = await readJson(request, jsonBody);
  // The password step, behind the per-address and per-username (or known device's) limits: one 401 message whether
  // the username exists or not, one 429 whether the password was right or not.
  const device = await knownDevice(request);
  const check = await checkLoginPassword(clientAddress, username, password, device);
  if (!check.ok) {
    return jsonError(
      check.status,
      check.message,
      undefined,
      check.retryAfter === null ? undefined : { "Retry-After": String(check.retryAfter) },
    );
  }
  // The password is verified: from here on, the second factor (docs/product.md
  // "Accounts and sign-ins").
  const second = await secondFactor(check.user.id, code, clientAddress, TWO_FACTOR_REQUIRED);
  if (!second.ok) {
    const headers = second.retryAfter ? { "Retry-After": String(second.retryAfter) } : undefined;
    return jsonError(second.status, second.message, { twoFactorRequired: true }, headers);
  }
  const headers = await signedInHeaders(request, check.user.id, second.secondFactor);
  return Response.json(toPublicUser(check.user), { headers });
}

export const openapi: doc.ApiPaths = {
  "/api/login": {
    post: {
      summary: "Signs in: the user and a sign-in cookie",
      ...doc.body(jsonBody),
      responses: {
        200: doc.answers("Signed in (Set-Cookie carries the sign-in)", shape.publicUserJson),
        ...doc.BODY_REFUSALS,
        401: doc.refused(
          "Wrong username or password; or `twoFactorRequired` when the account's code is missing or wrong, or the app's codes are frozen after too many wrong ones (a recovery code still signs in)",
          { twoFactorRequired: z.literal(true).optional() },
        ),
        429: doc.tooMany("Too many sign-in attempts", {
          twoFactorRequired: z.literal(true).optional(),
        }),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
