import type { ReactNode } from "react";

/**
 * The parts of the admin area's data tables (bookings, sessions, support, blocked times,
 * e-mails, files): one look for all of them.
 */

/** A wide table scrolls inside its own labelled, focusable region, never the page (320 px works). */
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

/**
 * The column headings of a table. A table whose rows are divided (`divide-y`) passes
 * `className="bg-paper"`, so the line under the headings is drawn once.
 */
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
