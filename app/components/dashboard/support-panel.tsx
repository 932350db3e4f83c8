import type { PublicUser } from "../../models/user.server";
import type { SupportTabData } from "../../services/dashboard/support.server";

/** Help & Support: the 'Get help' form and the customer's own requests. */
export function SupportPanel(_props: { user: PublicUser; data: SupportTabData }) {
  return <p data-slot="dashboard-support">Ask the studio for help here.</p>;
}
