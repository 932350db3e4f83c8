import { lazy, Suspense } from "react";
import type { IntentReply } from "#app/components/ui/use-schema-form";
import type { PublicUser } from "#app/domain/user";
import type { SupportTabData } from "#app/components/dashboard/types";

/** Its own chunk: conform and zod only when the tab is open. */
const SupportTab = lazy(() => import("#app/components/dashboard/support-tab"));

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
