import { lazy, Suspense } from "react";
import type { IntentReply } from "#app/components/ui/use-schema-form";
import type { PublicUser } from "#app/domain/user";
import type { ProfileTabData } from "#app/components/dashboard/types";

/** Its own chunk: conform and zod stay out of the landing page's bundle. */
const ProfileTab = lazy(() => import("#app/components/dashboard/profile-tab"));

export function ProfilePanel(props: {
  user: PublicUser;
  data: ProfileTabData;
  reply?: IntentReply;
}) {
  return (
    <Suspense fallback={<p className="text-ink-soft">Loading Profile Settings…</p>}>
      <ProfileTab {...props} />
    </Suspense>
  );
}
