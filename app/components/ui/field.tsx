import {
  type FieldMetadata,
  getInputProps,
  getSelectProps,
  getTextareaProps,
} from "@conform-to/react";
import type {
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from "react";
import { ErrorList } from "#app/components/ui/error-list";

/**
 * The one way a form shows its errors, customer and admin alike: conform's field metadata
 * gives each input its id, name, native constraints, `aria-invalid` and an
 * `aria-describedby` that names the field's hint and, when there are any, its errors.
 */

// biome-ignore lint/suspicious/noExplicitAny: any form schema; errors are always strings.
type Meta = FieldMetadata<any, any, string[]>;

/** The label, the hint under it, the control and its errors: every field's frame. */
function FieldFrame({
  meta,
  label,
  hint,
  hintId,
  className,
  children,
}: {
  meta: Meta;
  label: string;
  hint?: string;
  hintId?: string;
  className?: string;
  children: ReactNode;
}) {
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
      {children}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

type Common = {
  label: string;
  meta: Meta;
  /** A sentence under the label, read out with the field. */
  hint?: string;
  /** The frame's class; the control always has the form's input style. */
  className?: string;
};

const hintIdOf = (meta: Meta, hint: string | undefined) => (hint ? `${meta.id}-hint` : undefined);

type FieldProps = Common & {
  type: "text" | "password" | "email" | "tel" | "number" | "date" | "time" | "search";
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "form" | "className">;

/** A labelled input. */
export function Field({ label, meta, type, hint, className, ...props }: FieldProps) {
  const hintId = hintIdOf(meta, hint);
  const { key, ...inputProps } = getInputProps(meta, { type, ariaDescribedBy: hintId });
  return (
    <FieldFrame meta={meta} label={label} hint={hint} hintId={hintId} className={className}>
      <input key={key} {...inputProps} {...props} className="field-input" />
    </FieldFrame>
  );
}

type TextareaFieldProps = Common &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id" | "form" | "className">;

/** A labelled textarea. */
export function TextareaField({ label, meta, hint, className, ...props }: TextareaFieldProps) {
  const hintId = hintIdOf(meta, hint);
  const { key, ...textareaProps } = getTextareaProps(meta, { ariaDescribedBy: hintId });
  return (
    <FieldFrame meta={meta} label={label} hint={hint} hintId={hintId} className={className}>
      <textarea key={key} {...textareaProps} {...props} className="field-input" />
    </FieldFrame>
  );
}

type SelectFieldProps = Common & {
  options: readonly { value: string; label: string }[];
} & Omit<
    SelectHTMLAttributes<HTMLSelectElement>,
    "name" | "id" | "form" | "className" | "children"
  >;

/** A labelled select. */
export function SelectField({ label, meta, hint, className, options, ...props }: SelectFieldProps) {
  const hintId = hintIdOf(meta, hint);
  const { key, ...selectProps } = getSelectProps(meta, { ariaDescribedBy: hintId });
  return (
    <FieldFrame meta={meta} label={label} hint={hint} hintId={hintId} className={className}>
      <select key={key} {...selectProps} {...props} className="field-input">
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
