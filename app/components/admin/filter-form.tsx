import * as Headless from "@headlessui/react";
import { Form } from "react-router";

/** An explicit 'Apply', never a submit on change; no `page` field, so it starts at page 1. */
export function SelectFilter({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
}) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3">
      <Headless.Field>
        <Headless.Label className="field-label">{label}</Headless.Label>
        {/* Keyed by the applied value: a back/forward navigation shows what the URL says. */}
        <Headless.Select key={value} name={name} defaultValue={value} className="field-input">
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Headless.Select>
      </Headless.Field>
      <button type="submit" className="btn-secondary min-h-11 px-5 py-2 text-ink">
        Apply
      </button>
    </Form>
  );
}
