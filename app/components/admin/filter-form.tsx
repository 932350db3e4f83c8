import { Form } from "react-router";

/**
 * A list's filter as a GET form (filters live in the URL): one select and an explicit
 * 'Apply', never a submit on change. Applying starts again at page 1 (no `page` field).
 */
export function SelectFilter({
  id,
  name,
  label,
  value,
  options,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
}) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {/* Keyed by the applied value: a back/forward navigation shows what the URL says. */}
        <select key={value} id={id} name={name} defaultValue={value} className="field-input">
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn-secondary min-h-11 px-5 py-2 text-ink">
        Apply
      </button>
    </Form>
  );
}

/** A wide table scrolls inside its own labelled, focusable region, never the whole page. */
export function TableRegion({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must be able to scroll it (axe scrollable-region-focusable).
      tabIndex={0}
      className="overflow-x-auto rounded-xl ring-1 ring-line"
    >
      {children}
    </section>
  );
}

export const TH = "px-3 py-2 text-left text-sm font-semibold text-ink-soft whitespace-nowrap";
export const TD = "px-3 py-3 align-top text-sm";
