import { lazy, Suspense } from "react";
import type { IntentReply } from "#app/components/ui/use-schema-form";
import type { PublicUser } from "#app/domain/user";
import type { SupportTabData } from "#app/components/dashboard/types";

/**
 * This tab's form brings conform and zod, which the other tabs do not need: it loads as its
 * own chunk, only when the tab is open. The server renders
 * it whole (the document waits for every Suspense boundary), so the tab works without
 * JavaScript and hydrates once its chunk arrives.
 */
const SupportTab = lazy(() => import("#app/components/dashboard/support-tab"));

/** Help & Support: the 'Get help' form and the customer's own requests. */
export function SupportPanel(props: {
  user: PublicUser;
  data: SupportTabData;
  reply?: IntentReply;
}) {
  return (
    <Suspense fallback={<p className="text-ink-soft">Loading Help &amp; Support…</p>}>
      <SupportTab {...props} />
    </Suspense>
  );
}
