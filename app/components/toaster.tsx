import { createContext, useContext, useEffect, useRef, useState } from "react";
import { useHydrated } from "#app/components/ui/use-hydrated";

type Toast = {
  message: string;
  description?: string;
  type: "success" | "error" | "info" | "warning";
};

/** For a result learnt in the browser (the success page's polling). */
export const ShowToastContext = createContext<(toast: Toast) => void>(() => {});

export function useShowToast() {
  return useContext(ShowToastContext);
}

const AUTO_CLOSE_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

/**
 * docs/product.md "Constants". Server-rendered, so it shows without JavaScript too (CSS hides it);
 * a toast library would cost the landing page's budget more than this whole file.
 */
export function Toaster({
  toast,
  shownByPage = null,
}: {
  toast: Toast | null;
  shownByPage?: Toast | null;
}) {
  const [current, setCurrent] = useState<Toast | null>(toast);
  const hydrated = useHydrated();
  const ref = useRef<HTMLDivElement>(null);
  const swipeStart = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  // A new flash replaces the visible one; a revalidation without one leaves it be.
  useEffect(() => {
    if (!toast) return;
    setCurrent(toast);
    setOffset(0);
  }, [toast]);
  useEffect(() => {
    if (!shownByPage) return;
    setCurrent(shownByPage);
    setOffset(0);
  }, [shownByPage]);

  useEffect(() => {
    if (!current) return;
    const timer = window.setTimeout(() => setCurrent(null), AUTO_CLOSE_MS);
    return () => window.clearTimeout(timer);
  }, [current]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8") {
        event.preventDefault();
        ref.current?.querySelector<HTMLElement>("[data-toast]")?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const isError = current?.type === "error";
  return (
    <section
      ref={ref}
      aria-label="Notifications (F8)"
      className="pointer-events-none fixed right-4 bottom-4 left-4 z-50 flex justify-end sm:left-auto sm:w-96"
    >
      <div
        role={isError ? "alert" : "status"}
        aria-live={isError ? "assertive" : "polite"}
        className="w-full"
      >
        {current ? (
          <section
            data-toast
            tabIndex={-1}
            aria-label="Notification"
            style={{ transform: offset ? `translateX(${offset}px)` : undefined }}
            className={`pointer-events-auto relative w-full rounded-xl border p-4 pr-10 shadow-xl outline-none ${
              hydrated ? "" : "toast-auto-hide"
            } ${isError ? "border-brand-700 bg-brand-700 text-white" : "border-line bg-white text-ink"}`}
            onPointerDown={(event) => {
              swipeStart.current = event.clientX;
            }}
            onPointerMove={(event) => {
              if (swipeStart.current !== null)
                setOffset(Math.max(0, event.clientX - swipeStart.current));
            }}
            onPointerUp={() => {
              if (offset > SWIPE_THRESHOLD_PX) setCurrent(null);
              swipeStart.current = null;
              setOffset(0);
            }}
          >
            <p className="font-semibold">{current.message}</p>
            {current.description ? (
              <p className={`mt-1 text-sm ${isError ? "text-white" : "text-ink-soft"}`}>
                {current.description}
              </p>
            ) : null}
            {hydrated ? (
              <button
                type="button"
                onClick={() => setCurrent(null)}
                className="absolute top-2 right-2 rounded-full p-1.5 leading-none hover:bg-black/10"
                aria-label="Close notification"
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
                  <path d="M5.3 4.3a1 1 0 0 0-1.4 1.4L8.6 10l-4.7 4.3a1 1 0 1 0 1.4 1.4L10 11.4l4.3 4.3a1 1 0 0 0 1.4-1.4L11.4 10l4.3-4.3a1 1 0 0 0-1.4-1.4L10 8.6 5.3 4.3Z" />
                </svg>
              </button>
            ) : null}
          </section>
        ) : null}
      </div>
    </section>
  );
}
