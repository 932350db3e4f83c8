import { Outlet, type ShouldRevalidateFunctionArgs } from "react-router";
import { PaidDialog } from "#app/components/dashboard/paid-dialog";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { LandingPage, loadBelowTheFold } from "#app/components/landing/landing-page";
import {
  dashboardAction,
  dashboardTab,
  loadDashboard,
} from "#app/routes/dashboard/dashboard.server";
import { paidConfirmation } from "#app/routes/dashboard/sessions.server";
import { currentUser, customerPagesGuard } from "#app/web/user-context.server";
import { safeMethodContext } from "#app/web/request-context.server";
import type { Route } from "./+types/layout";

// The dashboard section is its own chunk (visitors of / never load it). This page always
// shows it: fetching it as soon as the route's code runs lets hydration find it ready, instead
// of a tab clicked early swapping the server's HTML for the loading text.
if (typeof document !== "undefined") void import("#app/components/landing/dashboard-section");

/**
 * Signed-in users only, for the dashboard and every dialog over it (pages, `.data` requests
 * and form posts): a visitor is sent to /auth. Loaders and actions read the user with
 * `currentUser(context)`.
 */
export const middleware: Route.MiddlewareFunction[] = [customerPagesGuard];

/**
 * /dashboard is the landing page opened on its dashboard section. The section is rendered
 * first, so the page opens on it with and without JavaScript (no scroll script needed). Its
 * child routes (a session's details, paying, cancelling, rescheduling) open as dialogs over it.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = currentUser(context);
  const now = Date.now();
  const url = new URL(request.url);
  return {
    user,
    dashboard: loadDashboard(user, dashboardTab(url), now, context.get(safeMethodContext)),
    // After Pay Now (?paid=<id>): only the owner's booking, and only once it is paid.
    paid: paidConfirmation(url, user),
  };
}

/** As /'s (routes/home/home.tsx): a navigation here waits for the landing page's lazy part. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), loadBelowTheFold()]);
  return data;
}

/**
 * Opening or filling in a session's dialog (its own GETs) leaves the dashboard under it as it
 * is; closing it, a form post, a redirect after one, or another tab reloads it.
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  actionResult,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // Runs in the browser: the dashboard's own parameters, compared as written.
  const view = (url: URL) => {
    const get = (name: string, fallback: string) => url.searchParams.get(name) ?? fallback;
    return `${get("tab", "bookings")}/${get("list", "upcoming")}/${get("paid", "")}`;
  };
  const quiet = (!formMethod || formMethod === "GET") && actionResult === undefined;
  // Closing one (back to /dashboard) reloads the list: a hold may have run out meanwhile.
  const toDialog = nextUrl.pathname !== "/dashboard";
  if (quiet && toDialog && view(currentUrl) === view(nextUrl)) return false;
  return defaultShouldRevalidate;
}

/** The dashboard's forms (profile, password, support), told apart by `intent`. */
export async function action({ request, context }: Route.ActionArgs) {
  return dashboardAction(request, context, currentUser(context));
}

export const meta: Route.MetaFunction = () => [
  { title: "My Account | ATL Creator Studio" },
  { name: "description", content: "Your sessions and account details at ATL Creator Studio." },
];

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      {/* First in the document: without JavaScript an open dialog is not modal, and the
          keyboard must reach it before the page it covers. */}
      <Outlet />
      {loaderData.paid ? <PaidDialog paid={loaderData.paid} /> : null}
      <DashboardPage data={loaderData} reply={actionData} />
    </>
  );
}

/**
 * An error in a dialog over the dashboard (a session that is not the customer's, a failure)
 * shows where the dialog would have been, over the same dashboard and its tabs. When the
 * dashboard itself could not be read there is only the error.
 */
export function ErrorBoundary({ loaderData }: Route.ErrorBoundaryProps) {
  if (!loaderData) return <GeneralErrorBoundary />;
  return (
    <>
      <GeneralErrorBoundary headingLevel={2} />
      <DashboardPage data={loaderData} />
    </>
  );
}

function DashboardPage({
  data,
  reply,
}: {
  data: Route.ComponentProps["loaderData"];
  reply?: Route.ComponentProps["actionData"];
}) {
  return (
    <LandingPage
      user={data.user}
      bookingForm={null}
      dashboard={data.dashboard}
      dashboardFirst
      dashboardReply={reply}
    />
  );
}
