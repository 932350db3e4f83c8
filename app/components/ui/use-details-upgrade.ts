import { type RefObject, useEffect, useState } from "react";
import { flushSync } from "react-dom";
import { useHydrated } from "#app/components/ui/use-hydrated";

/** True once the page runs, `ready` and the <details> closed: one opened before stays till closed. */
export function useDetailsUpgrade(
  ref: RefObject<HTMLDetailsElement | null>,
  ready = true,
): boolean {
  const hydrated = useHydrated();
  // Mounted after hydration (a client-side navigation), there is no server <details> to keep.
  const [upgraded, setUpgraded] = useState(hydrated && ready);
  useEffect(() => {
    const details = ref.current;
    if (upgraded || !ready || !details) return;
    // Looked at and swapped in one go, a task later: a click on a part not yet hydrated hydrates
    // it inside the click's dispatch, and the <details> opens only once that dispatch ends.
    const upgrade = () => {
      if (!details.open) flushSync(() => setUpgraded(true));
    };
    details.addEventListener("toggle", upgrade);
    const later = setTimeout(upgrade);
    return () => {
      clearTimeout(later);
      details.removeEventListener("toggle", upgrade);
    };
  }, [ref, ready, upgraded]);
  return upgraded;
}
