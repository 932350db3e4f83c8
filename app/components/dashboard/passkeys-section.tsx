import { Form } from "react-router";
import { AddPasskey } from "#app/components/passkeys";
import { Confirm } from "#app/components/ui/confirm";
import type { PasskeyRow } from "#app/domain/passkey";

/** Remove is a <details> without JavaScript (a Dialog with it); Add needs the browser's passkeys. */
export function PasskeysSection({ passkeys }: { passkeys: PasskeyRow[] }) {
  return (
    <section aria-labelledby="passkeys-title" className="border-t border-line pt-8">
      <h3 id="passkeys-title" className="font-display text-xl font-bold">
        Passkeys
      </h3>
      <p className="mt-1 text-sm text-ink-soft">
        A passkey signs you in with your fingerprint, face or device PIN instead of your password
        and code. It counts as both.
      </p>
      {passkeys.length === 0 ? (
        <p className="mt-4">You have no passkeys yet.</p>
      ) : (
        <ul aria-label="Your passkeys" className="mt-4 divide-y divide-line">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="py-3">
              <p className="font-semibold">{passkey.name}</p>
              <p className="text-sm text-ink-soft">
                {`Added ${passkey.added} · Last used ${passkey.lastUsed ?? "never"}`}
              </p>
              <Confirm
                className="mt-2"
                summary={
                  <>
                    Remove <span className="sr-only">{passkey.name}</span>
                  </>
                }
                summaryClassName="cursor-pointer text-sm font-semibold text-brand-700 underline"
              >
                {() => (
                  <Form method="post" action="/dashboard/passkeys" reloadDocument className="mt-2">
                    <p className="text-sm">
                      Remove “{passkey.name}”? It will no longer sign you in.
                    </p>
                    <input type="hidden" name="passkeyId" value={passkey.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="remove"
                      className="btn-secondary mt-2 text-sm"
                    >
                      Yes, remove “{passkey.name}”
                    </button>
                  </Form>
                )}
              </Confirm>
            </li>
          ))}
        </ul>
      )}
      <AddPasskey />
    </section>
  );
}
