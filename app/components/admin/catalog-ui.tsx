import type { ReactNode } from "react";

/** At 320 px it scrolls inside its own region instead of pushing the page sideways. */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a named scroll area inside the tab, not a new document section.
    <div
      role="region"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must be able to scroll it (axe scrollable-region-focusable).
      tabIndex={0}
      className="overflow-x-auto rounded-xl ring-1 ring-line"
    >
      <table className="w-full min-w-[40rem] text-left text-sm">{children}</table>
    </div>
  );
}

export function HeaderRow({ columns }: { columns: string[] }) {
  return (
    <thead className="bg-paper text-ink-soft">
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className="px-3 py-2 font-semibold">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

export const cellClass = "px-3 py-2 align-middle";
export const smallButton =
  "inline-flex min-h-9 items-center rounded-full px-3 text-sm font-semibold ring-1 ring-line hover:bg-black/5 disabled:cursor-not-allowed disabled:opacity-60";
