import type { ReactNode } from "react";
import { Form } from "react-router";
import { Confirm } from "#app/components/ui/confirm";
import { HydratedField } from "#app/components/ui/hydrated-field";

/** A post that takes a second, deliberate click (components/ui/confirm.tsx). */
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
  return (
    <Confirm summary={summary} summaryClassName={summaryClassName}>
      {(inDialog) => (
        <Form
          method="post"
          preventScrollReset
          className={inDialog ? "mt-3 space-y-3" : formClassName}
        >
          <HydratedField />
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <p className="text-sm">{children}</p>
          <button type="submit" className={submitClassName} disabled={busy}>
            {submit}
          </button>
        </Form>
      )}
    </Confirm>
  );
}
