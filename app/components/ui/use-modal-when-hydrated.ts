import { type RefObject, useEffect, useState } from "react";

/**
 * The site's dialogs are rendered open by the server, so they show without JavaScript (as a
 * non-modal <dialog open> over a dimming overlay). Once hydrated, this reopens one as a true
 * modal: focus kept inside, the page behind inert, Escape firing `cancel`, the browser's own
 * backdrop instead of the overlay. When the dialog goes (its route is left), focus goes back
 * to what opened it. Returns whether the dialog is modal now.
 */
export function useModalWhenHydrated(ref: RefObject<HTMLDialogElement | null>): boolean {
  const [modal, setModal] = useState(false);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement;
    if (!dialog.matches(":modal")) {
      dialog.close();
      dialog.showModal();
    }
    setModal(true);
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [ref]);
  return modal;
}
