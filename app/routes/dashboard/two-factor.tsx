import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { renderSVG } from "uqr";
import { data, Form, Link, redirect } from "react-router";
import { PasskeyAlternative } from "#app/components/passkeys";
import { ErrorList } from "#app/components/ui/error-list";
import { IntentButton } from "#app/components/ui/intent-button";
import { Field } from "#app/components/ui/field";
import { type FormReply, replyTo, useSchemaForm } from "#app/components/ui/use-schema-form";
import {
  confirmTwoFactorSchema,
  disableTwoFactorSchema,
  INVALID_SETUP_CODE,
  looksLikeTotp,
  STAFF_MUST_KEEP_TWO_FACTOR,
  TWO_FACTOR_ALREADY_OFF,
  TWO_FACTOR_ALREADY_ON,
  WRONG_PASSWORD_OR_CODE,
} from "#app/domain/two-factor";
import {
  authUri,
  pendingSecretFor,
  twoFactorState,
  spendSecondFactor,
} from "#app/models/two-factor.server";
import { confirmTwoFactor, disableTwoFactor } from "#app/workflows/two-factor.server";
import { hasPasskey } from "#app/models/passkey.server";
import { getUserById, passwordMatches } from "#app/models/user.server";
import { readForm } from "#app/web/form.server";
import { giveBackAttempt, takeAttempt, tooManyAttemptsMessage } from "#app/web/rate-limit.server";
import { dataWithError, redirectWithSuccess } from "#app/web/toast.server";
import { mustKeepSecondFactor } from "#app/web/staff-gate.server";
import { getStaffAccess, noteSecondFactorProven, requireUser } from "#app/web/user-context.server";
import type { Route } from "./+types/two-factor";

/**
 * Two-factor sign-in, set up and turned off from Profile Settings (docs/product.md
 * "Accounts and sign-ins"): a QR code and the secret as text, the app's first code to confirm, then
 * ten recovery codes shown once. The staff gate sends here an admin whose sign-in proved no second
 * factor; turning it on here proves one for this sign-in (docs/product.md "Accounts and sign-ins").
 * Plain posts: it works without JavaScript. A page of its own, outside the dashboard's layout.
 */
const PROFILE_TAB = "/dashboard?tab=profile";
const SETUP_PAGE = "/dashboard/two-factor";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const state = twoFactorState(user.id);
  // Set Up stores a secret for the account (a post: a visit writes nothing); the page shows
  // it on every visit until the first code confirms it, so a scanned QR code stays right.
  const secret = state.pendingSecret;
  const heldBack = (await getStaffAccess(request, context)) === "staff without second factor";
  return {
    enabled: state.enabled,
    recoveryCodesLeft: state.recoveryCodesLeft,
    staffRequired: mustKeepSecondFactor(user),
    heldBack,
    // A passkey proves both factors only when it signs in (docs/product.md "Accounts and sign-ins").
    passkeySignInNeeded: heldBack && !state.enabled && hasPasskey(user.id),
    setup: secret
      ? {
          secret,
          qrSvg: renderSVG(authUri(secret, user.username), { border: 2 }),
        }
      : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const formData = await readForm(request);
  const intent = formData.get("intent");

  if (intent === "start") {
    if (twoFactorState(user.id).enabled) {
      return dataWithError(
        { intent, result: null },
        { message: "Two-factor sign-in", description: TWO_FACTOR_ALREADY_ON },
        { status: 409 },
      );
    }
    await pendingSecretFor(user.id);
    return redirect(SETUP_PAGE);
  }

  if (intent === "confirm") {
    const submission = parseWithZod(formData, { schema: confirmTwoFactorSchema });
    if (submission.status !== "success") {
      return data({ intent, result: submission.reply({ hideFields: ["code"] }) }, { status: 400 });
    }
    const codes = await confirmTwoFactor(user.id, submission.value.code);
    if (!codes) {
      return dataWithError(
        {
          intent,
          result: submission.reply({
            fieldErrors: { code: [INVALID_SETUP_CODE] },
            hideFields: ["code"],
          }),
        },
        { message: "Two-factor sign-in", description: INVALID_SETUP_CODE },
        { status: 400 },
      );
    }
    await noteSecondFactorProven(request, context);
    // Shown on this answer only: the database keeps their hashes.
    return { intent, result: null, recoveryCodes: codes };
  }

  if (intent === "disable") {
    const submission = parseWithZod(formData, { schema: disableTwoFactorSchema });
    const refuse = (message: string, status: number, headers?: HeadersInit) =>
      dataWithError(
        { intent, result: submission.reply({ formErrors: [message], hideFields: ["proof"] }) },
        { message: "Two-factor sign-in", description: message },
        { status, headers },
      );
    if (submission.status !== "success") {
      return data({ intent, result: submission.reply({ hideFields: ["proof"] }) }, { status: 400 });
    }
    if (mustKeepSecondFactor(user)) return refuse(STAFF_MUST_KEEP_TWO_FACTOR, 403);
    if (!twoFactorState(user.id).enabled) return refuse(TWO_FACTOR_ALREADY_OFF, 409);
    // Guesses at the password or a code, per account: the password change's budget.
    const limitKey = `user:${user.id}`;
    const wait = await takeAttempt("password", limitKey);
    if (wait !== null) {
      return refuse(tooManyAttemptsMessage(wait), 429, { "Retry-After": String(wait) });
    }
    if (!(await provesAccount(user.id, submission.value.proof))) {
      return refuse(WRONG_PASSWORD_OR_CODE, 400);
    }
    await giveBackAttempt("password", limitKey);
    disableTwoFactor(user.id);
    return redirectWithSuccess(PROFILE_TAB, {
      message: "Two-factor sign-in is off",
      description: "Signing in now asks only for your password.",
    });
  }

  throw data("Unknown form", { status: 400 });
}

/** The password, the app's current code, or a recovery code (a code is used up). */
async function provesAccount(userId: number, proof: string): Promise<boolean> {
  if (looksLikeTotp(proof)) return (await spendSecondFactor(userId, proof)) !== null;
  const stored = getUserById(userId);
  if (stored && (await passwordMatches(stored.passwordHash, proof))) return true;
  return (await spendSecondFactor(userId, proof)) !== null;
}

/** A refused Retry-After reaches the page too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export const meta: Route.MetaFunction = () => [
  { title: "Two-factor sign-in | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];

export default function TwoFactorPage({ loaderData, actionData }: Route.ComponentProps) {
  const codes = actionData && "recoveryCodes" in actionData ? actionData.recoveryCodes : null;
  return (
    <div className="mx-auto max-w-2xl px-5 py-12 sm:px-8">
      <Link to={PROFILE_TAB} className="font-semibold text-brand-700 underline">
        Back to Profile Settings
      </Link>
      <div className="card mt-6 p-6 sm:p-8">
        <h1 className="font-display text-3xl font-bold">Two-factor sign-in</h1>
        <p className="mt-2 text-ink-soft">
          Signing in asks for a code from an authenticator app on your phone as well as your
          password, so a stolen password alone cannot open your account.
        </p>
        {loaderData.heldBack ? (
          <p role="alert" className="mt-4 rounded-lg bg-amber-50 p-4 font-semibold text-ink">
            {loaderData.enabled
              ? "Staff must sign in with a second factor before opening the admin pages: sign out, then sign in again with your app's code."
              : "Staff accounts must turn on two-factor sign-in before opening the admin pages."}
          </p>
        ) : null}
        {codes ? (
          <RecoveryCodes codes={codes} />
        ) : loaderData.enabled ? (
          <TurnOff
            recoveryCodesLeft={loaderData.recoveryCodesLeft}
            staffRequired={loaderData.staffRequired}
            result={replyTo(actionData, "disable")}
          />
        ) : loaderData.setup ? (
          <SetUp setup={loaderData.setup} result={replyTo(actionData, "confirm")} />
        ) : (
          <Start />
        )}
        {codes || loaderData.enabled ? null : (
          <PasskeyAlternative signInAgain={loaderData.passkeySignInNeeded} />
        )}
      </div>
    </div>
  );
}

/** Off, nothing set up yet: one button stores a fresh secret and shows it. */
function Start() {
  return (
    <section aria-labelledby="start-title" className="mt-8">
      <h2 id="start-title" className="font-display text-xl font-bold">
        Two-factor sign-in is off
      </h2>
      <p className="mt-2">
        You need an authenticator app on your phone (Google Authenticator, 1Password, Authy…).
      </p>
      <Form method="post" className="mt-6">
        <IntentButton intent="start" label="Set Up Two-Factor Sign-In" busyLabel="Starting…" />
      </Form>
    </section>
  );
}

function SetUp({ setup, result }: { setup: { secret: string; qrSvg: string }; result: FormReply }) {
  const [form, fields] = useSchemaForm({
    id: "confirm-two-factor",
    schema: confirmTwoFactorSchema,
    lastResult: result,
  });
  return (
    <section aria-labelledby="setup-title" className="mt-8">
      <h2 id="setup-title" className="font-display text-xl font-bold">
        Turn it on
      </h2>
      <ol className="mt-4 list-decimal space-y-4 pl-5">
        <li>
          Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…).
          <div
            role="img"
            aria-label="QR code for your authenticator app"
            className="mt-3 w-48 max-w-full"
            // An SVG string we made from the otpauth address (uqr), no script in it.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: our own SVG, see above.
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
        </li>
        <li>
          Or type this key into the app:{" "}
          <code data-testid="totp-secret" className="break-all font-mono font-semibold">
            {setup.secret}
          </code>
        </li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field
          label="Code from the app"
          meta={fields.code}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
        />
        <IntentButton intent="confirm" label="Turn On" busyLabel="Checking…" />
      </Form>
    </section>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section aria-labelledby="codes-title" className="mt-8">
      <h2 id="codes-title" className="font-display text-xl font-bold">
        Two-factor sign-in is on: save your recovery codes
      </h2>
      <p className="mt-2">
        If you lose your phone, each of these codes signs you in once instead of the app's code.
        They are shown only now: print them or keep them in a password manager.
      </p>
      <ul aria-label="Recovery codes" className="mt-4 grid grid-cols-2 gap-2 font-mono text-lg">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <Link to={PROFILE_TAB} className="btn-primary mt-6 inline-block">
        I have saved them
      </Link>
    </section>
  );
}

function TurnOff({
  recoveryCodesLeft,
  staffRequired,
  result,
}: {
  recoveryCodesLeft: number;
  staffRequired: boolean;
  result: FormReply;
}) {
  const [form, fields] = useSchemaForm({
    id: "disable-two-factor",
    schema: disableTwoFactorSchema,
    lastResult: result,
  });
  return (
    <section aria-labelledby="on-title" className="mt-8">
      <h2 id="on-title" className="font-display text-xl font-bold">
        Two-factor sign-in is on
      </h2>
      <p className="mt-2">
        Recovery codes left: <strong>{recoveryCodesLeft}</strong> of 10.
      </p>
      {staffRequired ? (
        <p className="mt-4">Staff accounts must keep it on.</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <ErrorList id={form.errorId} errors={form.errors} />
          <Field
            label="Password or code"
            meta={fields.proof}
            type="password"
            autoComplete="current-password"
            hint="Your password, the app's current code, or a recovery code."
          />
          <IntentButton intent="disable" label="Turn Off" busyLabel="Turning off…" />
        </Form>
      )}
    </section>
  );
}
