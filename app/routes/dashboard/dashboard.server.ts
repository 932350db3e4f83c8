import { data, type RouterContextProvider } from "react-router";
import type { DashboardData } from "#app/components/dashboard/types";
import { DASHBOARD_TABS, type DashboardTab } from "#app/domain/dashboard";
import type { PublicUser } from "#app/models/user.server";
import { readForm } from "#app/web/form.server";
import {
  loadProfileTab,
  PROFILE_INTENTS,
  profileAction,
} from "#app/routes/dashboard/profile.server";
import { loadSessionsTab } from "#app/routes/dashboard/sessions.server";
import {
  loadSupportTab,
  SUPPORT_INTENTS,
  supportAction,
} from "#app/routes/dashboard/support.server";
import {
  loadWaitlistRows,
  WAITLIST_INTENTS,
  waitlistAction,
} from "#app/routes/dashboard/waitlist.server";

/**
 * The customer's dashboard (docs/product.md "Client dashboard"): which tab is open, what it
 * shows, and where its forms go. /dashboard and the dashboard section of / both read it;
 * every form posts to /dashboard, told apart by `intent`.
 */
export function dashboardTab(url: URL): DashboardTab {
  const asked = url.searchParams.get("tab");
  return DASHBOARD_TABS.find((tab) => tab === asked) ?? "bookings";
}

/** `createFeed`: a GET, which may make the customer's calendar link (see profile.server). */
export function loadDashboard(
  user: PublicUser,
  tab: DashboardTab,
  now: number,
  createFeed = false,
): DashboardData {
  return {
    tab,
    sessions: tab === "bookings" ? loadSessionsTab(user, now) : null,
    profile: tab === "profile" ? loadProfileTab(user, createFeed) : null,
    support: tab === "support" ? loadSupportTab(user) : null,
    waitlist: tab === "bookings" ? loadWaitlistRows(user, now) : null,
  };
}

export async function dashboardAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  user: PublicUser,
) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (PROFILE_INTENTS.some((known) => known === intent)) {
    return profileAction(request, context, user, formData);
  }
  if (SUPPORT_INTENTS.some((known) => known === intent)) {
    return supportAction(request, context, user, formData);
  }
  if (WAITLIST_INTENTS.some((known) => known === intent)) {
    return waitlistAction(context, user, formData);
  }
  throw data("Unknown form", { status: 400 });
}
