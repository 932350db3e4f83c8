import type { ReactNode } from "react";

/** Scrolls inside its own focusable region, never the page (320 px works). */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
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

const TH = "px-3 py-2 text-left text-sm font-semibold text-ink-soft whitespace-nowrap";
export const TD = "px-3 py-3 align-top text-sm";

/** `className="bg-paper"` on a divided table draws the line under the headings once. */
export function ColumnHeads({
  columns,
  className = "border-b border-line bg-paper",
}: {
  columns: ReactNode[];
  className?: string;
}) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column, index) => (
          // A table's columns are fixed: their places are their keys.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          <th key={index} scope="col" className={TH}>
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}
