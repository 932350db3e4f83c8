import { count } from "drizzle-orm";
import { BOOKING_STATUSES, bookingStatusCounts, users } from "../../db/schema";
import { db } from "../db.server";
import { requireAdmin } from "../services/auth.server";
import type { Route } from "./+types/admin";

/** /admin and /admin/dashboard: staff only. The full control room arrives with its own issue. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  // Triggers keep these counts, so the page costs the same with any number of bookings.
  const totals = new Map(
    db
      .select()
      .from(bookingStatusCounts)
      .all()
      .map((row) => [row.status, row.total]),
  );
  const byStatus = BOOKING_STATUSES.map((status) => ({
    status,
    total: totals.get(status) ?? 0,
  })).filter((row) => row.total > 0);
  const userCount = db.select({ total: count() }).from(users).get()?.total ?? 0;
  return { byStatus, userCount };
}

export const meta: Route.MetaFunction = () => [
  { title: "Admin Dashboard | ATL Creator Studio" },
  { name: "description", content: "Staff area of ATL Creator Studio." },
];

export default function Admin({ loaderData }: Route.ComponentProps) {
  return (
    <section className="section">
      <h1 className="font-display text-3xl font-bold">Admin Dashboard</h1>
      <p className="mt-2 text-ink-soft">{loaderData.userCount} registered users.</p>
      <h2 className="mt-8 font-display text-xl font-bold">Bookings by status</h2>
      <ul className="mt-4 grid gap-3 sm:grid-cols-3">
        {loaderData.byStatus.map((row) => (
          <li key={row.status} className="rounded-xl border border-line bg-white p-4">
            <span className="block text-sm text-ink-soft">{row.status.replaceAll("_", " ")}</span>
            <span className="text-2xl font-bold">{row.total}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
