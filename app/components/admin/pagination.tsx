import { Link, useLocation } from "react-router";

/** Every other query parameter stays, so a page of a filtered list is a URL to share. */
export function Pagination({
  page,
  hasNext,
  label = "Pages",
}: {
  page: number;
  hasNext: boolean;
  label?: string;
}) {
  const { pathname, search } = useLocation();
  if (page <= 1 && !hasNext) return null;
  const hrefFor = (target: number) => {
    const params = new URLSearchParams(search);
    if (target <= 1) params.delete("page");
    else params.set("page", String(target));
    const query = params.toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  const linkClass =
    "inline-flex min-h-11 items-center rounded-full px-4 text-sm font-semibold ring-1 ring-line hover:bg-black/5";
  return (
    <nav aria-label={label} className="mt-6 flex items-center justify-between gap-3">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className={linkClass} rel="prev">
          Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-ink-soft">Page {page}</span>
      {hasNext ? (
        <Link to={hrefFor(page + 1)} className={linkClass} rel="next">
          Next
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
