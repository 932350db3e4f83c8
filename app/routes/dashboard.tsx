import { Outlet, type ShouldRevalidateFunctionArgs } from "react-router";
import { LandingPage } from "../components/landing/landing-page";
import { requireUser } from "../services/auth.server";
import { loadBookingForm } from "../services/booking-form.server";
import {
  dashboardAction,
  dashboardTab,
  loadDashboard,
} from "../services/dashboard/dashboard.server";
import type { Route } from "./+types/dashboard";

/**
 * /dashboard is the landing page opened on its dashboard section. The section is rendered
 * first, so the page opens on it with and without JavaScript (no scroll script needed). Its
 * child routes (a session's details, paying, cancelling, rescheduling) open as dialogs over it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const now = Date.now();
  return {
    user,
    bookingForm: loadBookingForm(user, now),
    dashboard: loadDashboard(user, dashboardTab(new URL(request.url)), now),
  };
}

/**
 * Opening, closing or filling in a session's dialog (its own GETs) leaves the dashboard under
 * it as it is; a form post, a redirect after one, or another tab reloads it.
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  actionResult,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // Runs in the browser: the tab is compared as written (no server module here).
  const tab = (url: URL) => url.searchParams.get("tab") ?? "bookings";
  const quiet = (!formMethod || formMethod === "GET") && actionResult === undefined;
  if (quiet && tab(currentUrl) === tab(nextUrl)) return false;
  return defaultShouldRevalidate;
}

/** The dashboard's forms (profile, password, support), told apart by `intent`. */
export async function action({ request, context }: Route.ActionArgs) {
  return dashboardAction(request, context, await requireUser(request));
}

export const meta: Route.MetaFunction = () => [
  { title: "My Account | ATL Creator Studio" },
  { name: "description", content: "Your sessions and account details at ATL Creator Studio." },
];

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <LandingPage
        user={loaderData.user}
        bookingForm={loaderData.bookingForm}
        dashboard={loaderData.dashboard}
        dashboardFirst
      />
      <Outlet />
    </>
  );
}
