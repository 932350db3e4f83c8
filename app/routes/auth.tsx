import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useActionData, useNavigation, useSearchParams } from "react-router";
import { ErrorList } from "#app/components/ui/error-list";
import { Field } from "#app/components/ui/field";
import { type FormReply, useSchemaForm } from "#app/components/ui/use-schema-form";
import { loginSchema, registerFormSchema } from "#app/domain/account";
import { createUser, UsernameTakenError } from "#app/models/user.server";
import { requireAnonymous } from "#app/web/user-context.server";
import { readForm } from "#app/web/form.server";
import { checkLoginPassword } from "#app/web/login-throttle.server";
import { addressKey, takeAttempt, tooManyAttemptsMessage } from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { createUserSession } from "#app/web/session.server";
import { dataWithError, redirectWithSuccess } from "#app/web/toast.server";
import type { Route } from "./+types/auth";

/** Bots fill every field; people never see this one. */
const HONEYPOT_FIELD = "website";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request, context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request, context);
  const formData = await readForm(request);
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
    const { username, password } = submission.value;
    const check = await checkLoginPassword(clientAddress, username, password);
    if (check.status === "refused") {
      return dataWithError(
        {
          intent,
          result: submission.reply({ formErrors: [check.message], hideFields: ["password"] }),
        },
        { message: "Login failed", description: check.message },
        {
          status: check.httpStatus,
          headers: check.retryAfter === null ? {} : { "Retry-After": String(check.retryAfter) },
        },
      );
    }
    const cookie = await createUserSession(request, check.user.id);
    return redirectWithSuccess(
      "/",
      { message: "Login successful", description: "Welcome back!" },
      { headers: { "Set-Cookie": cookie } },
    );
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
      const cookie = await createUserSession(request, user.id);
      return redirectWithSuccess(
        "/",
        {
          message: "Registration successful",
          description: `Welcome to ATL Creator Studio, ${user.firstName}! You can book your first session now.`,
        },
        { headers: { "Set-Cookie": cookie } },
      );
    } catch (error) {
      if (!(error instanceof UsernameTakenError)) throw error;
      return dataWithError(
        {
          intent,
          result: submission.reply({
            fieldErrors: { username: [error.message] },
            hideFields: hidden,
          }),
        },
        { message: "Registration failed", description: error.message },
        { status: 409 },
      );
    }
  }

  return data({ intent: null, result: null }, { status: 400 });
}

export default function AuthPage() {
  const [searchParams] = useSearchParams();
  const actionData = useActionData<typeof action>();
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
          {tab === "login" ? "Welcome back" : "Create your account"}
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
        {tab === "login" ? (
          <LoginForm result={actionData?.intent === "login" ? actionData.result : undefined} />
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

function SubmitButton({
  label,
  busyLabel,
  intent,
}: {
  label: string;
  busyLabel: string;
  intent: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      className="btn-primary mt-6 w-full"
      disabled={busy}
    >
      {busy ? busyLabel : label}
    </button>
  );
}

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
      <SubmitButton label="Sign In" busyLabel="Signing in…" intent="login" />
    </Form>
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
      <div className="flex items-start gap-3">
        <input
          {...getInputProps(fields.isStakeholder, { type: "checkbox" })}
          key={fields.isStakeholder.key}
          className="mt-1 size-5 rounded border-ink-soft/50 accent-brand-600"
        />
        <label htmlFor={fields.isStakeholder.id} className="text-sm">
          <span className="font-semibold">I am a stakeholder of the innovation centre</span>
          <span className="block text-ink-soft">
            Stakeholders book at $150/hour instead of $200/hour.
          </span>
        </label>
      </div>
      <div className="absolute -left-[9999px]" aria-hidden="true">
        <label htmlFor="register-website">Leave this field empty</label>
        <input
          id="register-website"
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
        />
      </div>
      <SubmitButton label="Create Account" busyLabel="Creating account…" intent="register" />
    </Form>
  );
}

/** A limited login's or registration's Retry-After reaches the page too, not only its data request. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export const meta: Route.MetaFunction = () => [
  { title: "Sign in or register | ATL Creator Studio" },
  {
    name: "description",
    content:
      "Sign in or create an account to book podcast and video sessions at ATL Creator Studio in Atlanta.",
  },
];
