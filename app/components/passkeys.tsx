import { getFormProps, type Submission } from "@conform-to/react";
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import { useState } from "react";
import { Form, useLocation, useNavigate } from "react-router";
import { ErrorList, FormErrors } from "#app/components/ui/error-list";
import { Field } from "#app/components/ui/field";
import { useHydrated } from "#app/components/ui/use-hydrated";
import { type FormReply, useSchemaForm } from "#app/components/ui/use-schema-form";
import { PASSKEY_BROWSER_FAILED, passkeyNameSchema } from "#app/domain/passkey";

/**
 * docs/product.md "Accounts and sign-ins". WebAuthn needs JavaScript: without it the page is what
 * it was, password sign-in included.
 */
const SERVER_FAILED = "Something went wrong. Please try again.";

type Answer<T> = { ok: true; body: T } | { ok: false; message: string };

async function postJson<T>(url: string, body: unknown): Promise<Answer<T>> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as T & { message?: string };
    if (response.ok) return { ok: true, body: json };
    return { ok: false, message: json.message ?? SERVER_FAILED };
  } catch {
    return { ok: false, message: SERVER_FAILED };
  }
}

/** Whether to show the passkey buttons: after hydration, in a browser that has passkeys. */
function usePasskeysAvailable(): boolean {
  return useHydrated() && browserSupportsWebAuthn();
}

type Options<T> = { challengeId: string; options: T };
type RequestOptions = Parameters<typeof startAuthentication>[0]["optionsJSON"];
type CreationOptions = Parameters<typeof startRegistration>[0]["optionsJSON"];

export function PasskeySignIn() {
  const available = usePasskeysAvailable();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!available) return null;

  async function signIn() {
    setBusy(true);
    setError(null);
    const message = await run();
    setBusy(false);
    setError(message);
  }

  async function run(): Promise<string | null> {
    const started = await postJson<Options<RequestOptions>>("/auth/passkey", { intent: "options" });
    if (!started.ok) return started.message;
    let response: Awaited<ReturnType<typeof startAuthentication>>;
    try {
      response = await startAuthentication({ optionsJSON: started.body.options });
    } catch {
      return PASSKEY_BROWSER_FAILED;
    }
    const done = await postJson<{ redirectTo: string }>("/auth/passkey", {
      intent: "verify",
      challengeId: started.body.challengeId,
      response,
    });
    if (!done.ok) return done.message;
    navigate(done.body.redirectTo);
    return null;
  }

  return (
    <div className="mt-6 border-t border-line pt-6">
      <FormErrors id="passkey-sign-in-error" errors={error ? [error] : null} />
      <p className="mb-3 text-center text-sm text-ink-soft">Or sign in without your password:</p>
      <button
        type="button"
        onClick={signIn}
        disabled={busy}
        aria-describedby={error ? "passkey-sign-in-error" : undefined}
        className="btn-secondary w-full"
      >
        {busy ? "Waiting for your passkey…" : "Sign in with a passkey"}
      </button>
    </div>
  );
}

export function AddPasskey() {
  const available = usePasskeysAvailable();
  const navigate = useNavigate();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<FormReply>(undefined);
  const [form, fields] = useSchemaForm({
    id: "add-passkey",
    schema: passkeyNameSchema,
    lastResult: result,
    // conform's own checks (a refused name, revalidating as one types) stay conform's.
    onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status === "success") void add(submission.value.name, submission);
    },
  });
  if (!available) return null;

  async function add(name: string, submission: Submission<unknown, string[], unknown>) {
    setBusy(true);
    const message = await run(name);
    setBusy(false);
    if (message) {
      setResult(submission.reply({ formErrors: [message] }));
      return;
    }
    setResult(submission.reply({ resetForm: true }));
    await navigate(`${location.pathname}${location.search}`, {
      replace: true,
      preventScrollReset: true,
    });
  }

  async function run(name: string): Promise<string | null> {
    const started = await postJson<Options<CreationOptions>>("/dashboard/passkeys", {
      intent: "options",
      name,
    });
    if (!started.ok) return started.message;
    let response: Awaited<ReturnType<typeof startRegistration>>;
    try {
      response = await startRegistration({ optionsJSON: started.body.options });
    } catch {
      return PASSKEY_BROWSER_FAILED;
    }
    const done = await postJson<{ id: number }>("/dashboard/passkeys", {
      intent: "verify",
      name,
      challengeId: started.body.challengeId,
      response,
    });
    return done.ok ? null : done.message;
  }

  return (
    <form {...getFormProps(form)} className="mt-4 space-y-4">
      <ErrorList id={form.errorId} errors={form.errors} />
      <Field
        label="Passkey name"
        meta={fields.name}
        type="text"
        autoComplete="off"
        hint="So you can tell your passkeys apart, for example “Work laptop”."
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Waiting for your passkey…" : "Add a passkey"}
      </button>
    </form>
  );
}

/**
 * Adding a passkey does not prove this sign-in (it began with a password only), so staff sign in
 * again with it (docs/product.md "Accounts and sign-ins").
 */
export function PasskeyAlternative({ signInAgain }: { signInAgain: boolean }) {
  const available = usePasskeysAvailable();
  if (!signInAgain && !available) return null;
  return (
    <section
      aria-labelledby="passkey-alternative-title"
      className="mt-10 border-t border-line pt-8"
    >
      <h2 id="passkey-alternative-title" className="font-display text-xl font-bold">
        Or use a passkey
      </h2>
      {signInAgain ? (
        <div role="status" className="mt-4 rounded-lg bg-amber-50 p-4">
          <p className="font-semibold">
            You have a passkey. Sign out, then choose “Sign in with a passkey” on the sign-in page
            to open the admin pages.
          </p>
          <Form method="post" action="/logout" navigate={false} className="mt-3">
            <button type="submit" className="btn-primary">
              Sign out
            </button>
          </Form>
        </div>
      ) : (
        <>
          <p className="mt-2">
            A passkey signs you in with your fingerprint, face or device PIN, and counts as both
            your password and a code. After adding one, sign in again with it.
          </p>
          <AddPasskey />
        </>
      )}
    </section>
  );
}
