import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import * as Headless from "@headlessui/react";
import {
  data,
  Form,
  Link,
  redirect,
  useActionData,
  useLoaderData,
  useSearchParams,
} from "react-router";
import { PasskeySignIn } from "#app/components/passkeys";
import { ErrorList } from "#app/components/ui/error-list";
import { IntentButton } from "#app/components/ui/intent-button";
import { Choice, Field } from "#app/components/ui/field";
import { type FormReply, useSchemaForm } from "#app/components/ui/use-schema-form";
import { loginSchema, registerFormSchema } from "#app/domain/account";
import { HOURLY_RATES } from "#app/domain/rates";
import { Refusal } from "#app/domain/refusal";
import {
  loginCodeSchema,
  PENDING_LOGIN_EXPIRED,
  TWO_FACTOR_REQUIRED,
} from "#app/domain/two-factor";
import { hasTwoFactor } from "#app/models/two-factor.server";
import { createUser } from "#app/models/user.server";
import { requireAnonymous } from "#app/web/user-context.server";
import { authenticateLoginForm } from "#app/web/auth.server";
import { readForm } from "#app/web/form.server";
import { formRefusal } from "#app/web/refusals.server";
import {
  addressKey,
  retryAfterHeaders,
  takeAttempt,
  tooManyAttemptsMessage,
} from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { registrationClosedMessage } from "#app/web/registration-open.server";
import { createSignIn } from "#app/web/sign-in.server";
import { signedInHeaders } from "#app/web/known-device.server";
import { secondFactor } from "#app/routes/second-factor.server";
import { dataWithError, redirectWithError, redirectWithSuccess } from "#app/web/toast.server";
import { endPendingLogin, pendingLoginUserId, startPendingLogin } from "#app/web/two-factor.server";
import type { Route } from "./+types/auth";
import type { StoredForVisitors } from "#app/web/shared-pages.server";

/** Bots fill every field; people never see this one. */
const HONEYPOT_FIELD = "website";

/** `codeStep`: the password was right and the account's two-factor code is awaited. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request, context);
  return { codeStep: (await pendingLoginUserId(request)) !== null };
}

export const handle = { storedForVisitors: true } satisfies StoredForVisitors;

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request, context);
  // remix-auth's form strategy reads the login form itself, so conform parses a clone.
  const formData = await readForm(request.clone());
  const intent = formData.get("intent");
  const clientAddress = context.get(clientAddressContext);

  if (intent === "login") {
    const submission = parseWithZod(formData, { schema: loginSchema });
    if (submission.status !== "success") {
      return data(
        { intent, result: submission.reply({ hideFields: ["password"] }) },
        { status: 400 },
      );
    }
    const check = await authenticateLoginForm(request, clientAddress);
    if (!check.ok) {
      return dataWithError(
        {
          intent,
          result: submission.reply({ formErrors: [check.message], hideFields: ["password"] }),
        },
        { message: "Login failed", description: check.message },
        {
          status: check.status,
          headers: check.retryAfter === null ? {} : { "Retry-After": String(check.retryAfter) },
        },
      );
    }
    // The password is verified: from here on, the second factor (docs/product.md
    // "Accounts and sign-ins"). The code is asked for on this page; until it comes there is no
    // session, only a signed cookie naming the account for a few minutes (decision 0080).
    if (hasTwoFactor(check.user.id)) {
      throw redirect("/auth", {
        headers: { "Set-Cookie": await startPendingLogin(check.user.id) },
      });
    }
    return redirectWithSuccess(
      "/",
      { message: "Login successful", description: "Welcome back!" },
      { headers: await signedInHeaders(request, check.user.id, false) },
    );
  }

  if (intent === "code") return codeStep(request, formData, clientAddress);

  if (intent === "cancel-code") {
    throw redirect("/auth", { headers: { "Set-Cookie": await endPendingLogin() } });
  }

  if (intent === "register") {
    const submission = parseWithZod(formData, { schema: registerFormSchema });
    const hidden = ["password", "confirmPassword"];
    if (formData.get(HONEYPOT_FIELD)) {
      return data(
        {
          intent,
          result: submission.reply({ formErrors: ["Registration failed"], hideFields: hidden }),
        },
        { status: 400 },
      );
    }
    if (submission.status !== "success") {
      return data({ intent, result: submission.reply({ hideFields: hidden }) }, { status: 400 });
    }
    const closed = registrationClosedMessage();
    if (closed) {
      return dataWithError(
        { intent, result: submission.reply({ formErrors: [closed], hideFields: hidden }) },
        { message: "Registration failed", description: closed },
        { status: 403 },
      );
    }
    const retryAfter = await takeAttempt("register", addressKey(clientAddress));
    if (retryAfter !== null) {
      const message = tooManyAttemptsMessage(retryAfter);
      return dataWithError(
        { intent, result: submission.reply({ formErrors: [message], hideFields: hidden }) },
        { message: "Registration failed", description: message },
        { status: 429, headers: { "Retry-After": String(retryAfter) } },
      );
    }
    try {
      const user = await createUser(submission.value);
      const cookie = await createSignIn(request, user.id, false);
      return redirectWithSuccess(
        "/",
        {
          message: "Registration successful",
          description: `Welcome to ATL Creator Studio, ${user.firstName}! You can book your first session now.`,
        },
        { headers: { "Set-Cookie": cookie } },
      );
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      const { toast, init, field = "username" } = formRefusal(error);
      return dataWithError(
        {
          intent,
          result: submission.reply({
            fieldErrors: { [field]: [error.message] },
            hideFields: hidden,
          }),
        },
        { message: toast.message, description: toast.description },
        init,
      );
    }
  }

  return data({ intent: null, result: null }, { status: 400 });
}

/** The second step: the code of the account whose password was right. */
async function codeStep(request: Request, formData: FormData, clientAddress: string) {
  const intent = "code" as const;
  const userId = await pendingLoginUserId(request);
  if (userId === null) {
    return redirectWithError(
      "/auth",
      { message: "Login failed", description: PENDING_LOGIN_EXPIRED },
      { headers: { "Set-Cookie": await endPendingLogin() } },
    );
  }
  const submission = parseWithZod(formData, { schema: loginCodeSchema });
  if (submission.status !== "success") {
    return data({ intent, result: submission.reply({ hideFields: ["code"] }) }, { status: 400 });
  }
  const second = await secondFactor(
    userId,
    submission.value.code,
    clientAddress,
    TWO_FACTOR_REQUIRED,
  );
  if (!second.ok) {
    return dataWithError(
      { intent, result: submission.reply({ formErrors: [second.message], hideFields: ["code"] }) },
      { message: "Login failed", description: second.message },
      {
        status: second.status,
        headers: second.retryAfter ? { "Retry-After": String(second.retryAfter) } : undefined,
      },
    );
  }
  const headers = await signedInHeaders(request, userId, true);
  headers.append("Set-Cookie", await endPendingLogin());
  return redirectWithSuccess(
    "/",
    { message: "Login successful", description: "Welcome back!" },
    { headers },
  );
}

export default function AuthPage() {
  const [searchParams] = useSearchParams();
  const actionData = useActionData<typeof action>();
  const { codeStep } = useLoaderData<typeof loader>();
  // After a failed register post, stay on Register even if the URL has no tab parameter.
  const tab =
    actionData?.intent === "register" ||
    (searchParams.get("tab") === "register" && actionData?.intent !== "login")
      ? "register"
      : "login";
  return (
    <div className="relative isolate overflow-hidden bg-night px-5 py-16 sm:py-24">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(circle_at_20%_10%,rgba(240,74,46,0.35),transparent_45%),radial-gradient(circle_at_85%_80%,rgba(242,184,75,0.18),transparent_40%)]"
      />
      <div className="mx-auto w-full max-w-md rounded-2xl bg-white p-6 shadow-2xl sm:p-8">
        <h1 className="font-display text-2xl font-bold">
          {tab === "register"
            ? "Create your account"
            : codeStep
              ? "Two-factor sign-in"
              : "Welcome back"}
        </h1>
        <p className="mt-1 text-sm text-ink-soft">
          {tab === "login"
            ? "Sign in to book and manage your sessions."
            : "Register to book studio time in minutes."}
        </p>
        <nav
          aria-label="Sign in or register"
          className="mt-6 grid grid-cols-2 rounded-full bg-paper p-1 text-sm font-semibold"
        >
          <TabLink to="/auth" active={tab === "login"}>
            Login
          </TabLink>
          <TabLink to="/auth?tab=register" active={tab === "register"}>
            Register
          </TabLink>
        </nav>
        {tab === "login" && codeStep ? (
          <CodeForm result={actionData?.intent === "code" ? actionData.result : undefined} />
        ) : tab === "login" ? (
          <>
            <LoginForm result={actionData?.intent === "login" ? actionData.result : undefined} />
            <PasskeySignIn />
          </>
        ) : (
          <RegisterForm
            result={actionData?.intent === "register" ? actionData.result : undefined}
          />
        )}
      </div>
    </div>
  );
}

function TabLink({
  to,
  active,
  children,
}: {
  to: string;
  active: boolean;
  children: React.ReactNode;
}) {
  return (
    <Link
      to={to}
      replace
      preventScrollReset
      aria-current={active ? "page" : undefined}
      className={`rounded-full px-4 py-2 text-center ${active ? "bg-white text-ink shadow" : "text-ink-soft hover:text-ink"}`}
    >
      {children}
    </Link>
  );
}

type Result = FormReply;

function LoginForm({ result }: { result: Result }) {
  const [form, fields] = useSchemaForm({ id: "login", schema: loginSchema, lastResult: result });
  return (
    <Form method="post" action="/auth" {...getFormProps(form)} className="mt-6 space-y-4">
      <ErrorList id={form.errorId} errors={form.errors} />
      <Field
        label="Username"
        meta={fields.username}
        type="text"
        autoComplete="username"
        autoCapitalize="none"
      />
      <Field
        label="Password"
        meta={fields.password}
        type="password"
        autoComplete="current-password"
      />
      <IntentButton
        label="Sign In"
        busyLabel="Signing in…"
        intent="login"
        className="btn-primary mt-6 w-full"
      />
    </Form>
  );
}

/** After a right password, on an account with two-factor on: the code, or a recovery code. */
function CodeForm({ result }: { result: Result }) {
  const [form, fields] = useSchemaForm({ id: "code", schema: loginCodeSchema, lastResult: result });
  return (
    <>
      <Form method="post" action="/auth" {...getFormProps(form)} className="mt-6 space-y-4">
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field
          label="Authentication code"
          meta={fields.code}
          type="text"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          hint="The 6-digit code your authenticator app shows, or one of your recovery codes."
        />
        <IntentButton
          label="Verify"
          busyLabel="Verifying…"
          intent="code"
          className="btn-primary mt-6 w-full"
        />
      </Form>
      <Form method="post" action="/auth" className="mt-3 text-center">
        <button
          type="submit"
          name="intent"
          value="cancel-code"
          className="text-sm font-semibold text-brand-700 underline"
        >
          Sign in with a different account
        </button>
      </Form>
    </>
  );
}

function RegisterForm({ result }: { result: Result }) {
  const [form, fields] = useSchemaForm({
    id: "register",
    schema: registerFormSchema,
    lastResult: result,
  });
  return (
    <Form
      method="post"
      action="/auth?tab=register"
      {...getFormProps(form)}
      className="mt-6 space-y-4"
    >
      <ErrorList id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First name" meta={fields.firstName} type="text" autoComplete="given-name" />
        <Field label="Last name" meta={fields.lastName} type="text" autoComplete="family-name" />
      </div>
      <Field
        label="Username"
        meta={fields.username}
        type="text"
        autoComplete="username"
        autoCapitalize="none"
      />
      <Field label="Email" meta={fields.email} type="email" autoComplete="email" />
      <Field label="Phone number" meta={fields.phoneNumber} type="tel" autoComplete="tel" />
      <Field
        label="Business name (optional)"
        meta={fields.businessName}
        type="text"
        autoComplete="organization"
      />
      <Field
        label="Password"
        meta={fields.password}
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters, and not easy to guess."
      />
      <Field
        label="Confirm password"
        meta={fields.confirmPassword}
        type="password"
        autoComplete="new-password"
      />
      <Choice
        meta={fields.isStakeholder}
        type="checkbox"
        label="I am a stakeholder of the innovation centre"
        description={`Stakeholders book at $${HOURLY_RATES.stakeholder}/hour instead of $${HOURLY_RATES.nonMember}/hour.`}
        className="flex items-start gap-3 text-sm"
        inputClassName="mt-1 size-5 rounded border-ink-soft/50 accent-brand-600"
        labelClassName="font-semibold"
        descriptionClassName="text-ink-soft"
      />
      <Headless.Field className="absolute -left-[9999px]" aria-hidden="true">
        <Headless.Label>Leave this field empty</Headless.Label>
        <Headless.Input name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
      </Headless.Field>
      <IntentButton
        label="Create Account"
        busyLabel="Creating account…"
        intent="register"
        className="btn-primary mt-6 w-full"
      />
    </Form>
  );
}

/**
 * A limited login's, code's or registration's Retry-After reaches the page too, not only its
 * data request.
 */
export const headers: Route.HeadersFunction = retryAfterHeaders;

export const meta: Route.MetaFunction = () => [
  { title: "Sign in or register | ATL Creator Studio" },
  {
    name: "description",
    content:
      "Sign in or create an account to book podcast and video sessions at ATL Creator Studio in Atlanta.",
  },
];
