import { useHydrated } from "#app/components/ui/use-hydrated";

/**
 * Tells an action that the page posting is hydrated, so it can flash its toast through the
 * cookie; without it the toast is rendered in the same response (see `replyWithToast`).
 */
export function HydratedField() {
  return useHydrated() ? <input type="hidden" name="_hydrated" value="1" /> : null;
}
