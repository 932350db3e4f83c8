import type { ReactNode } from "react";

/** A tab's heading (an h2 under the layout's h1), its description and any header actions. */
export function AdminPage({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="admin-tab-title" className="card bg-white p-4 sm:p-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id="admin-tab-title" className="font-display text-2xl font-bold">
            {title}
          </h2>
          {description ? <p className="mt-1 text-ink-soft">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </header>
      <div className="mt-6">{children}</div>
    </section>
  );
}

/** What an empty list says, in the words of docs/product.md "Messages". */
export function EmptyList({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-2xl border border-dashed border-ink-soft/30 px-6 py-10 text-center font-semibold text-ink-soft">
      {children}
    </p>
  );
}
