import { type RefObject, useEffect, useState } from "react";

/** True once the page runs, `ready` and the <details> closed: one opened before stays till closed. */
export function useDetailsUpgrade(
  ref: RefObject<HTMLDetailsElement | null>,
  ready = true,
): boolean {
  const [upgraded, setUpgraded] = useState(false);
  useEffect(() => {
    const details = ref.current;
    if (!ready || !details) return;
    const upgrade = () => {
      if (details.open) return;
      details.removeEventListener("toggle", upgrade);
      setUpgraded(true);
    };
    details.addEventListener("toggle", upgrade);
    upgrade();
    return () => details.removeEventListener("toggle", upgrade);
  }, [ref, ready]);
  return upgraded;
}
