import * as Headless from "@headlessui/react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useDetailsUpgrade } from "#app/components/ui/use-details-upgrade";

/**
 * A second, deliberate click: a <details> without JavaScript, Headless UI's Dialog with it. The
 * dialog closes as it posts, so the answer's toast is not behind it.
 */
export function Confirm({
  summary,
  summaryClassName,
  className,
  children,
}: {
  summary: ReactNode;
  summaryClassName: string;
  /** The <details>' class, or the button's frame once the page runs. */
  className?: string;
  /** The question and its submit button; a button of a form outside names it (`form`). */
  children: (inDialog: boolean) => ReactNode;
}) {
  const details = useRef<HTMLDetailsElement>(null);
  const upgraded = useDetailsUpgrade(details);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!asking) return;
    // A post by script only: a native one leaves the page, and would stop if its form went.
    const close = (event: SubmitEvent) => {
      if (event.defaultPrevented) setAsking(false);
    };
    document.addEventListener("submit", close);
    return () => document.removeEventListener("submit", close);
  }, [asking]);
  if (!upgraded) {
    return (
      <details ref={details} className={className}>
        <summary className={summaryClassName}>{summary}</summary>
        {children(false)}
      </details>
    );
  }
  const open = (
    <button
      type="button"
      aria-haspopup="dialog"
      onClick={() => setAsking(true)}
      className={summaryClassName}
    >
      {summary}
    </button>
  );
  return (
    <>
      {className ? <div className={className}>{open}</div> : open}
      <Headless.Dialog
        open={asking}
        onClose={() => setAsking(false)}
        role="alertdialog"
        className="relative z-50"
      >
        <Headless.DialogBackdrop className="fixed inset-0 bg-night/60" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <Headless.DialogPanel className="w-[min(28rem,100%)] rounded-2xl bg-white p-6 text-ink shadow-2xl">
            <Headless.DialogTitle className="font-display text-lg font-bold">
              {summary}
            </Headless.DialogTitle>
            {children(true)}
            <button
              type="button"
              onClick={() => setAsking(false)}
              className="mt-3 text-sm font-semibold text-ink-soft underline underline-offset-2"
            >
              Cancel
            </button>
          </Headless.DialogPanel>
        </div>
      </Headless.Dialog>
    </>
  );
}
