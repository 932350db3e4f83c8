import { type RefObject, useEffect, useState } from "react";

/**
 * True once the page runs, the enhancement is `ready` and the server's <details> is closed. One opened before the page's
 * JavaScript arrived (decision 0094) stays a <details> until it is closed, so what a person
 * opened is not taken from under them.
 */
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
