import { type ReactNode, useId, useRef } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { useModalWhenHydrated } from "#app/components/ui/use-modal-when-hydrated";

/**
 * A dialog that is a URL (Session Details, Pay Now, Cancel, Reschedule): a nested route of
 * /dashboard renders it over the dashboard. The server renders it open, so without JavaScript
 * it is a page of its own with a Close link; with JavaScript it becomes a true modal (focus
 * kept inside, Escape closes) and closing goes back to `closeTo` without a full reload.
 */
export function RouteDialog({
  title,
  closeTo,
  children,
  wide = false,
}: {
  title: ReactNode;
  /** Where Close and Escape go (the dashboard list the dialog was opened from). */
  closeTo: string;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const navigate = useNavigate();
  // Without a known opener, focus goes back to the link on the list that leads here.
  const { pathname, search } = useLocation();
  const modal = useModalWhenHydrated(ref, `a[href="${pathname}${search}"]`);
  return (
    <>
      {modal ? null : (
        <div aria-hidden="true" className="fixed inset-0 z-40 bg-night/60 print:hidden" />
      )}
      <dialog
        ref={ref}
        open
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault();
          navigate(closeTo, { preventScrollReset: true });
        }}
        className={`fixed inset-0 z-50 m-auto max-h-[calc(100dvh-2rem)] ${wide ? "w-[min(44rem,calc(100%-2rem))]" : "w-[min(32rem,calc(100%-2rem))]"} overflow-y-auto rounded-2xl bg-white p-6 text-ink shadow-2xl backdrop:bg-night/60 sm:p-8`}
      >
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="font-display text-2xl font-bold">
            {title}
          </h2>
          <Link
            to={closeTo}
            preventScrollReset
            className="-m-2 rounded-full p-2 text-ink-soft hover:text-ink"
            aria-label="Close"
          >
            <span aria-hidden="true" className="block text-2xl leading-none">
              ×
            </span>
          </Link>
        </div>
        <div className="mt-4">{children}</div>
      </dialog>
    </>
  );
}
