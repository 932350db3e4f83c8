import { type RefObject, useEffect } from "react";

/**
 * The site's dialogs are rendered open by the server, so they show without JavaScript (as a
 * non-modal <dialog open>). Once hydrated, this reopens one as a true modal: focus kept
 * inside, the page behind inert, Escape firing `cancel`.
 */
export function useModalWhenHydrated(ref: RefObject<HTMLDialogElement | null>) {
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.matches(":modal")) return;
    dialog.close();
    dialog.showModal();
  }, [ref]);
}
