import { type RefObject, useEffect, useRef, useState } from "react";

/**
 * The site's dialogs are rendered open by the server, so they show without JavaScript (as a
 * non-modal <dialog open> over a dimming overlay). Once hydrated, this reopens one as a true
 * modal: focus kept inside, the page behind inert, Escape firing `cancel`, the browser's own
 * backdrop instead of the overlay. When the dialog goes (its route is left), focus goes back
 * to what opened it, or to `returnFocusTo` when the page was opened on the dialog (or a link
 * was followed before the page hydrated). Returns whether the dialog is modal now.
 */
export function useModalWhenHydrated(
  ref: RefObject<HTMLDialogElement | null>,
  /** Where focus goes back when nothing on the page opened it (the URL was loaded as is). */
  returnFocusTo?: string,
): boolean {
  const [modal, setModal] = useState(false);
  // The first one counts: a dialog that changes its own URL (rescheduling's date) stays the
  // same dialog, opened from the same place.
  const fallback = useRef(returnFocusTo);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const active = document.activeElement;
    const opener = active instanceof HTMLElement && active !== document.body ? active : null;
    if (!dialog.matches(":modal")) {
      dialog.close();
      dialog.showModal();
    }
    setModal(true);
    return () => {
      const target = opener?.isConnected
        ? opener
        : fallback.current
          ? document.querySelector<HTMLElement>(fallback.current)
          : null;
      target?.focus();
    };
  }, [ref]);
  return modal;
}
