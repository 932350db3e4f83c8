import { parseWithZod } from "@conform-to/zod/v4";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { z } from "zod";
import { PASSKEY_NOT_FOUND, passkeyNameSchema, removePasskeySchema } from "#app/domain/passkey";
import { challengeIdField, credentialField } from "#app/routes/passkey-json.server";
import { jsonError, methodsOnly, readJson } from "#app/web/api.server";
import { readForm } from "#app/web/form.server";
import { dataWithSuccess, redirectWithError, redirectWithSuccess } from "#app/web/toast.server";
import { requireUser } from "#app/web/user-context.server";
import { addPasskey, registrationOptions, removePasskey } from "#app/workflows/passkeys.server";
import type { Route } from "./+types/passkeys";

/**
 * The account's passkeys (docs/product.md "Accounts and sign-ins"), from Profile Settings and
 * the two-factor page. Adding one is JSON posted by the "Add a passkey" button (JavaScript
 * only: `{ intent: "options", name }`, then `{ intent: "verify", name, challengeId, response }`);
 * removing one is a plain form post that works without JavaScript.
 */
const PROFILE_TAB = "/dashboard?tab=profile";

const bodySchema = z.discriminatedUnion(
  "intent",
  [
    passkeyNameSchema.extend({ intent: z.literal("options") }),
    passkeyNameSchema.extend({
      intent: z.literal("verify"),
      challengeId: challengeIdField,
      response: credentialField<RegistrationResponseJSON>(),
    }),
  ],
  { error: "Unknown passkey request" },
);

export const middleware: Route.MiddlewareFunction[] = [methodsOnly("POST")];

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const isJson = (request.headers.get("Content-Type") ?? "").startsWith("application/json");
  if (!isJson) return removeAction(user.id, await readForm(request));

  const body = await readJson(request, bodySchema);
  if (body.intent === "options") return Response.json(await registrationOptions(user));
  const result = await addPasskey(user.id, body);
  if (!result.ok) return jsonError(result.status, result.message);
  return dataWithSuccess(
    { id: result.id },
    { message: "Passkey added", description: `"${body.name}" can now sign you in.` },
  );
}

async function removeAction(userId: number, formData: FormData) {
  const submission = parseWithZod(formData, { schema: removePasskeySchema });
  if (
    formData.get("intent") !== "remove" ||
    submission.status !== "success" ||
    !removePasskey(userId, submission.value.passkeyId)
  ) {
    return redirectWithError(PROFILE_TAB, { message: "Error", description: PASSKEY_NOT_FOUND });
  }
  return redirectWithSuccess(PROFILE_TAB, {
    message: "Passkey removed",
    description: "It can no longer sign you in.",
  });
}
