import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { z } from "zod";
import { challengeIdField, credentialField } from "#app/routes/passkey-json.server";
import { jsonError, methodsOnly, readJson } from "#app/web/api.server";
import {
  addressKey,
  giveBackAttempt,
  takeAttempt,
  tooManyAttemptsMessage,
} from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { createSignIn } from "#app/web/sign-in.server";
import { dataWithSuccess } from "#app/web/toast.server";
import { getUser } from "#app/web/user-context.server";
import { signInOptions, signInWithPasskey } from "#app/workflows/passkeys.server";
import type { Route } from "./+types/auth.passkey";

/**
 * "Sign in with a passkey" on /auth (docs/product.md "Accounts and sign-ins"): JSON posted by
 * the button, which exists only with JavaScript. `{ intent: "options" }` hands out a challenge;
 * `{ intent: "verify", challengeId, response }` checks the answer and starts a sign-in that
 * counts as both factors.
 */
const bodySchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("options") }),
    z.object({
      intent: z.literal("verify"),
      challengeId: challengeIdField,
      response: credentialField<AuthenticationResponseJSON>(),
    }),
  ],
  { error: "Unknown passkey request" },
);

const ALREADY_SIGNED_IN = "You are already signed in.";

export const middleware: Route.MiddlewareFunction[] = [methodsOnly("POST")];

export async function action({ request, context }: Route.ActionArgs) {
  if (await getUser(request, context)) return jsonError(409, ALREADY_SIGNED_IN);
  const body = await readJson(request, bodySchema);
  const limitKey = addressKey(context.get(clientAddressContext));
  const wait = await takeAttempt("passkeySignIn", limitKey);
  if (wait !== null) {
    return jsonError(429, tooManyAttemptsMessage(wait), undefined, {
      "Retry-After": String(wait),
    });
  }
  if (body.intent === "options") return Response.json(await signInOptions());

  const result = await signInWithPasskey(body);
  if (!result.ok) return jsonError(result.status, result.message);
  await giveBackAttempt("passkeySignIn", limitKey);
  // A passkey is something the person has and is (or knows): both factors at once.
  const cookie = await createSignIn(request, result.userId, true);
  return dataWithSuccess(
    { redirectTo: "/" },
    { message: "Login successful", description: "Welcome back!" },
    { headers: { "Set-Cookie": cookie } },
  );
}
