import { AdminPage } from "../../components/admin/admin-page";
import { AdminCalendar } from "../../components/admin/calendar";
import { loadCalendar } from "../../services/admin/calendar.server";
import { requireAdmin } from "../../services/auth.server";
import type { Route } from "./+types/bookings";

// Placeholder: this tab is being built (issue 6).
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  return url.searchParams.get("view") === "calendar" ? loadCalendar(url, undefined) : null;
}

export default function Tab({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Bookings Management">
      {loaderData ? (
        <AdminCalendar data={loaderData} detailsHref={(d) => `/admin/bookings?date=${d}`} />
      ) : null}
    </AdminPage>
  );
}
