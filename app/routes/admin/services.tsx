import { AdminPage } from "../../components/admin/admin-page";
import { requireAdmin } from "../../services/auth.server";
import type { Route } from "./+types/services";

// Placeholder: this tab is being built (issue 6).
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export default function Tab() {
  return <AdminPage title="Manage Services">{null}</AdminPage>;
}
