import type { SessionsTabData } from "../../services/dashboard/sessions.server";

/** My Sessions (spec section 2): Upcoming and Past Sessions tables. */
export function SessionsPanel(_props: { data: SessionsTabData }) {
  return <p data-slot="dashboard-sessions">Your sessions are listed here.</p>;
}
