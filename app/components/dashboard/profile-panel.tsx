import { lazy, Suspense } from "react";
import type { IntentReply } from "#app/components/ui/use-schema-form";
import type { PublicUser } from "#app/domain/user";
import type { ProfileTabData } from "#app/components/dashboard/types";

/**
 * Like Help & Support, this tab's forms bring conform and zod, which stay out of the landing
 * page's bundle: the tab loads as its own chunk when it is open. The server renders it whole,
 * so it works without JavaScript and hydrates once its chunk arrives.
 */
const ProfileTab = lazy(() => import("#app/components/dashboard/profile-tab"));

/**
 * Profile Settings (docs/product.md "Screens" and "Validation"): the profile form and the password
 * change.
 */
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
