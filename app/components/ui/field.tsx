import {
  type FieldMetadata,
  getInputProps,
  getSelectProps,
  getTextareaProps,
} from "@conform-to/react";
import * as Headless from "@headlessui/react";
import {
  Fragment,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { ErrorList } from "#app/components/ui/error-list";

/**
 * Every form's fields: Headless UI ties each label and description to its control, conform
 * gives the control its name, constraints and value. Controls are native elements rendered by
 * the server, so each form posts without JavaScript.
 */

// biome-ignore lint/suspicious/noExplicitAny: any form schema; errors are always strings.
type Meta = FieldMetadata<any, any, string[]>;

const isInvalid = (meta: Meta) => Boolean(meta.errors?.length);

/**
 * conform's props for the native control. Headless UI gives it its id and, once hydrated,
 * aria-describedby; the server's HTML gets that list from here. No `meta.key`: a reset that
 * remounted the focused control would blur it inside React's commit, and conform's blur check
 * would then post natively.
 */
function nativeProps<Props extends { id?: string }>(
  props: Props,
  describedBy: (string | false | undefined)[],
) {
  const {
    id: _id,
    key: _key,
    "aria-invalid": _invalid,
    "aria-describedby": _describedBy,
    ...rest
  } = props as Props & { key?: unknown; "aria-invalid"?: unknown; "aria-describedby"?: unknown };
  return { ...rest, "aria-describedby": describedBy.filter(Boolean).join(" ") || undefined };
}

const fieldDescribedBy = (meta: Meta, hint: ReactNode) => [
  Boolean(hint) && meta.descriptionId,
  isInvalid(meta) && meta.errorId,
];

function FieldErrors({ meta }: { meta: Meta }) {
  return isInvalid(meta) ? (
    <Headless.Description as={ErrorList} id={meta.errorId} errors={meta.errors} />
  ) : null;
}

type Common = {
  label: ReactNode;
  meta: Meta;
  /** A sentence under the label, read out with the field. */
  hint?: ReactNode;
  hintClassName?: string;
  /** The frame's class; the control always has the form's input style. */
  className?: string;
};

/** The label, the hint under it, the control and its errors: every field's frame. */
function FieldFrame({
  meta,
  label,
  hint,
  hintClassName = "mt-0.5 text-sm text-ink-soft",
  className,
  beside,
  children,
}: Common & { beside?: ReactNode; children: ReactNode }) {
  return (
    <Headless.Field className={className}>
      <Headless.Label className="field-label">{label}</Headless.Label>
      {hint ? (
        <Headless.Description id={meta.descriptionId} className={hintClassName}>
          {hint}
        </Headless.Description>
      ) : null}
      {beside ? (
        <div className="flex flex-wrap items-end gap-3">
          <div className="min-w-48 flex-1">{children}</div>
          {beside}
        </div>
      ) : (
        children
      )}
      <FieldErrors meta={meta} />
    </Headless.Field>
  );
}

type FieldProps = Common & {
  type: "text" | "password" | "email" | "tel" | "number" | "date" | "time" | "search";
  /** A button beside the input (Apply, Save): the errors go under both, so none moves it. */
  beside?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "form" | "className">;

export function Field({
  label,
  meta,
  type,
  hint,
  hintClassName,
  className,
  beside,
  autoFocus,
  ...props
}: FieldProps) {
  const inputProps = nativeProps(getInputProps(meta, { type }), fieldDescribedBy(meta, hint));
  return (
    <FieldFrame {...{ meta, label, hint, hintClassName, className, beside }}>
      <Headless.Input as={Fragment} invalid={isInvalid(meta)} autoFocus={autoFocus}>
        <input {...inputProps} {...props} className="field-input" />
      </Headless.Input>
    </FieldFrame>
  );
}

type TextareaFieldProps = Common &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id" | "form" | "className">;

export function TextareaField({
  label,
  meta,
  hint,
  hintClassName,
  className,
  autoFocus,
  ...props
}: TextareaFieldProps) {
  const textareaProps = nativeProps(getTextareaProps(meta), fieldDescribedBy(meta, hint));
  return (
    <FieldFrame {...{ meta, label, hint, hintClassName, className }}>
      <Headless.Textarea as={Fragment} invalid={isInvalid(meta)} autoFocus={autoFocus}>
        <textarea {...textareaProps} {...props} className="field-input" />
      </Headless.Textarea>
    </FieldFrame>
  );
}

type SelectFieldProps = Common & {
  options: readonly { value: string; label: string; disabled?: boolean }[];
} & Omit<
    SelectHTMLAttributes<HTMLSelectElement>,
    "name" | "id" | "form" | "className" | "children"
  >;

export function SelectField({
  label,
  meta,
  hint,
  hintClassName,
  className,
  options,
  autoFocus,
  ...props
}: SelectFieldProps) {
  const selectProps = nativeProps(getSelectProps(meta), fieldDescribedBy(meta, hint));
  return (
    <FieldFrame {...{ meta, label, hint, hintClassName, className }}>
      <Headless.Select as={Fragment} invalid={isInvalid(meta)} autoFocus={autoFocus}>
        <select {...selectProps} {...props} className="field-input">
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      </Headless.Select>
    </FieldFrame>
  );
}

type ChoiceProps = {
  meta: Meta;
  type: "checkbox" | "radio";
  /** The value this box posts (one of a group's); a lone checkbox posts "on". */
  value?: string;
  label: ReactNode;
  /** Read out with the label, shown under it. */
  description?: ReactNode;
  /** The frame's class: the box, then its label and description. */
  className?: string;
  inputClassName?: string;
  labelClassName?: string;
  descriptionClassName?: string;
} & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "type" | "name" | "id" | "form" | "value" | "className"
>;

/**
 * A native checkbox or radio button with its label beside it. Headless UI's own Checkbox and
 * Radio are spans whose value posts only through JavaScript; its Label still clicks the box.
 * Inside a `Fieldset` for a group, whose errors it carries; alone, a checkbox shows its own.
 */
export function Choice({
  meta,
  type,
  value,
  label,
  description,
  className = "flex items-start gap-3",
  inputClassName = "mt-1 size-5 shrink-0 accent-brand-600",
  labelClassName,
  descriptionClassName = "text-sm text-ink-soft",
  autoFocus,
  ...props
}: ChoiceProps) {
  const grouped = value !== undefined;
  const descriptionId = grouped ? `${meta.descriptionId}-${value}` : meta.descriptionId;
  const inputProps = nativeProps(getInputProps(meta, { type, value }), [
    description !== undefined && descriptionId,
    !grouped && isInvalid(meta) && meta.errorId,
  ]);
  return (
    <Headless.Field className={className}>
      <Headless.Input as={Fragment} invalid={isInvalid(meta)} autoFocus={autoFocus}>
        <input {...inputProps} {...props} className={inputClassName} />
      </Headless.Input>
      <div>
        <Headless.Label className={labelClassName}>{label}</Headless.Label>
        {description === undefined ? null : (
          <Headless.Description id={descriptionId} className={descriptionClassName}>
            {description}
          </Headless.Description>
        )}
        {grouped ? null : <FieldErrors meta={meta} />}
      </div>
    </Headless.Field>
  );
}

/**
 * A group of fields under its legend. Headless UI's Legend is a <div> that names the group
 * only once hydrated; rendered as a <legend> it names it on the server too. Given a field's
 * metadata (a radio group, a list of checkboxes), the group carries that field's errors.
 */
export function Fieldset({
  legend,
  legendClassName = "font-display text-lg font-bold",
  meta,
  className,
  children,
}: {
  legend: ReactNode;
  legendClassName?: string;
  meta?: Meta;
  className?: string;
  children: ReactNode;
}) {
  const invalid = meta !== undefined && isInvalid(meta);
  return (
    <Headless.Fieldset className={className} aria-describedby={invalid ? meta.errorId : undefined}>
      <Headless.Legend as="legend" className={legendClassName}>
        {legend}
      </Headless.Legend>
      {children}
      {meta ? <ErrorList id={meta.errorId} errors={meta.errors} /> : null}
    </Headless.Fieldset>
  );
}
