import { type FieldMetadata, getInputProps } from "@conform-to/react";
import type { InputHTMLAttributes } from "react";

/**
 * A whole form's errors (a declined card, a slot taken meanwhile), in a live region that is
 * always there, so a message that appears in it is read out, also inside a modal dialog where
 * the page's toasts cannot be reached.
 */
export function FormErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  return (
    <div role="alert">
      <ErrorList id={id} errors={errors} />
    </div>
  );
}

/** The errors of one field, announced and tied to its input by id. */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field-error" aria-live="polite">
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}

type FieldProps = {
  label: string;
  // biome-ignore lint/suspicious/noExplicitAny: any form schema; errors are always strings.
  meta: FieldMetadata<any, any, string[]>;
  type: "text" | "password" | "email" | "tel";
  hint?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "form">;

/** A labelled input whose errors are linked with aria-describedby (conform sets aria-invalid). */
export function Field({ label, meta, type, hint, className, ...props }: FieldProps) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const inputProps = getInputProps(meta, { type, ariaDescribedBy: hintId });
  return (
    <div className={className}>
      <label htmlFor={meta.id} className="field-label">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="mt-0.5 text-sm text-ink-soft">
          {hint}
        </p>
      ) : null}
      <input {...inputProps} {...props} key={inputProps.key} className="field-input" />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
