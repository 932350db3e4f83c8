import type { ReactNode } from "react";
import { Form } from "react-router";
import { HydratedField } from "#app/components/ui/hydrated-field";

/** A second, deliberate click: a disclosure, so it works without JavaScript. */
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
    <details>
      <summary className={summaryClassName}>{summary}</summary>
      <Form method="post" preventScrollReset className={formClassName}>
        <HydratedField />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <p className="text-sm">{children}</p>
        <button type="submit" className={submitClassName} disabled={busy}>
          {submit}
        </button>
      </Form>
    </details>
  );
}
