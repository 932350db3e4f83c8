import * as Headless from "@headlessui/react";
import { type ReactNode, useState } from "react";
import { Form } from "react-router";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { useHydrated } from "#app/components/ui/use-hydrated";

/**
 * A second, deliberate click: a disclosure, so it works without JavaScript; once the page runs,
 * the same form opens in Headless UI's Dialog, a modal that asks first.
 */
export function ConfirmDisclosure({
  summary,
  summaryClassName,
  formClassName,
  fields,
  children,
  submit,
  submitClassName,
  busy,
}: {
  summary: ReactNode;
  summaryClassName: string;
  formClassName: string;
  fields: Record<string, string | number>;
  children: ReactNode;
  submit: ReactNode;
  submitClassName: string;
  busy: boolean;
}) {
  const hydrated = useHydrated();
  const [asking, setAsking] = useState(false);
  const form = (className: string, onSubmit?: () => void) => (
    <Form method="post" preventScrollReset className={className} onSubmit={onSubmit}>
      <HydratedField />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <p className="text-sm">{children}</p>
      <button type="submit" className={submitClassName} disabled={busy}>
        {submit}
      </button>
    </Form>
  );
  if (!hydrated) {
    return (
      <details>
        <summary className={summaryClassName}>{summary}</summary>
        {form(formClassName)}
      </details>
    );
  }
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        onClick={() => setAsking(true)}
        className={summaryClassName}
      >
        {summary}
      </button>
      <Headless.Dialog
        open={asking}
        onClose={() => setAsking(false)}
        role="alertdialog"
        className="relative z-50"
      >
        <Headless.DialogBackdrop className="fixed inset-0 bg-night/60" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <Headless.DialogPanel className="w-[min(28rem,100%)] rounded-2xl bg-white p-6 text-ink shadow-2xl">
            <Headless.DialogTitle className="font-display text-lg font-bold">
              {summary}
            </Headless.DialogTitle>
            {/* Closed as it posts: the answer's toast must not sit behind the modal. */}
            {form("mt-3 space-y-3", () => setAsking(false))}
            <button
              type="button"
              onClick={() => setAsking(false)}
              className="mt-3 text-sm font-semibold text-ink-soft underline underline-offset-2"
            >
              Cancel
            </button>
          </Headless.DialogPanel>
        </div>
      </Headless.Dialog>
    </>
  );
}
