import { type RefObject, useEffect, useState } from "react";
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
    const upgrade = () => {
      if (details.open) return;
      details.removeEventListener("toggle", upgrade);
      setUpgraded(true);
    };
    details.addEventListener("toggle", upgrade);
    upgrade();
    return () => details.removeEventListener("toggle", upgrade);
  }, [ref, ready, upgraded]);
  return upgraded;
}
