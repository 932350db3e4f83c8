import { registerSchema } from "#app/domain/account";
import { Refusal } from "#app/domain/refusal";
import { createUser, toPublicUser } from "#app/models/user.server";
import { jsonError, readJson, describedMethodsOnly } from "#app/web/api.server";
import { addressKey, takeAttempt, tooManyAttemptsMessage } from "#app/web/rate-limit.server";
import { jsonRefusal } from "#app/web/refusals.server";
import { registrationClosedMessage } from "#app/web/registration-open.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { createSignIn } from "#app/web/sign-in.server";
import type { Route } from "./+types/register";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = registerSchema;

/**
 * POST /api/register with the registration payload of docs/product.md "Data": the new user, signed
 * in.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const closed = registrationClosedMessage();
  if (closed) return jsonError(403, closed);
  const retryAfter = await takeAttempt("register", addressKey(context.get(clientAddressContext)));
  if (retryAfter !== null) {
    return jsonError(429, tooManyAttemptsMessage(retryAfter), undefined, {
      "Retry-After": String(retryAfter),
    });
  }
  const input = await readJson(request, jsonBody);
  try {
    const user = await createUser(input);
    const cookie = await createSignIn(request, user.id, false);
    return Response.json(toPublicUser(user), { status: 201, headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof Refusal) return jsonRefusal(error);
    throw error;
  }
}

export const openapi: doc.ApiPaths = {
  "/api/register": {
    post: {
      summary: "Creates an account and signs it in",
      ...doc.body(jsonBody),
      responses: {
        201: doc.answers("The new user (Set-Cookie carries the sign-in)", shape.publicUserJson),
        ...doc.BODY_REFUSALS,
        400: doc.refused("A refused field (`errors`), or the username is taken", {
          errors: doc.fieldErrors.optional(),
        }),
        403: doc.refused("No admin exists yet: registration opens after create-admin"),
        429: doc.tooMany("Too many registrations from this address"),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
