import type { ReactNode } from "react";
import { NavLink, Outlet, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Icon, type IconName } from "#app/components/landing/icons";
import type { loader as rootLoader } from "#app/root";
import { RouteTabs } from "#app/components/ui/route-tabs";
import { adminPagesGuard } from "#app/web/user-context.server";
import type { Route } from "./+types/layout";

/**
 * The control room's frame: the title and the tabs. Its guard middleware runs before every
 * tab's loader and action (pages, `.data` requests and form posts alike): a visitor goes to
 * /auth, a customer to /dashboard, and the tabs read the admin with `currentAdmin(context)`.
 */
export const middleware: Route.MiddlewareFunction[] = [adminPagesGuard];

type Tab = { to: string; label: string; icon: IconName };

/** The seven tabs of docs/product.md "Admin dashboard" ("Support" is the seventh). */
const TABS: Tab[] = [
  { to: "/admin/bookings", label: "Bookings", icon: "calendar" },
  { to: "/admin/sessions", label: "Sessions", icon: "waveform" },
  { to: "/admin/sales", label: "Sales", icon: "briefcase" },
  { to: "/admin/users", label: "Users", icon: "community" },
  { to: "/admin/coupons", label: "Coupons", icon: "star" },
  { to: "/admin/services", label: "Services", icon: "light" },
  { to: "/admin/support", label: "Support", icon: "headphones" },
];

/** The studio's tools beside the tabs (docs/product.md "Blocked times", "Emails page"). */
const TOOLS: Tab[] = [
  { to: "/admin/blocked-times", label: "Blocked times", icon: "clock" },
  { to: "/admin/emails", label: "Emails", icon: "mail" },
];

export default function AdminLayout() {
  return (
    <AdminFrame>
      <Outlet />
    </AdminFrame>
  );
}

/**
 * An error in a tab (a booking that does not exist, a failure) shows in place of the tab,
 * under the same title and tabs. Only an admin gets the frame: the one other way here is a
 * visitor's or customer's post to a page without a form, refused before the guard asks who
 * they are (see adminPagesGuard).
 */
export function ErrorBoundary() {
  const isAdmin = useRouteLoaderData<typeof rootLoader>("root")?.user?.isAdmin ?? false;
  const error = <GeneralErrorBoundary headingLevel={isAdmin ? 2 : 1} />;
  return isAdmin ? (
    <AdminFrame>
      <div className="card bg-white">{error}</div>
    </AdminFrame>
  ) : (
    error
  );
}

function AdminFrame({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  // As NavLink matches: a booking's page (/admin/bookings/12) is under the Bookings tab.
  const selected = TABS.findIndex(
    (tab) => pathname === tab.to || pathname.startsWith(`${tab.to}/`),
  );
  return (
    <div className="dashboard-bg min-h-screen">
      <div className="mx-auto max-w-7xl px-4 pt-24 pb-16 sm:px-6 md:pt-28">
        <h1 className="font-display text-3xl font-bold">Admin Dashboard</h1>
        <nav aria-label="Admin sections" className="mt-6">
          {/* Below 768 px only the icons show; the label stays for screen readers. */}
          <RouteTabs
            className="grid grid-cols-7 gap-1 rounded-2xl bg-white p-1 shadow-sm ring-1 ring-line"
            selected={selected}
            tabs={TABS.map((tab, index) => ({
              to: tab.to,
              "aria-current": index === selected ? "page" : undefined,
              className:
                "flex min-h-11 items-center justify-center gap-2 rounded-xl px-2 py-2 text-sm font-semibold text-ink-soft hover:text-ink aria-[current=page]:bg-ink aria-[current=page]:text-white",
              children: (
                <>
                  <Icon name={tab.icon} className="size-5 shrink-0" />
                  <span className="sr-only md:not-sr-only">{tab.label}</span>
                </>
              ),
            }))}
          />
          <ul className="mt-2 flex flex-wrap gap-2">
            {TOOLS.map((tool) => (
              <li key={tool.to}>
                <NavLink
                  to={tool.to}
                  className="inline-flex items-center gap-2 rounded-full px-3 py-1.5 text-sm font-semibold text-ink-soft ring-1 ring-line hover:text-ink aria-[current=page]:bg-ink aria-[current=page]:text-white"
                >
                  <Icon name={tool.icon} className="size-4" />
                  {tool.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="relative mt-8">
          <LoadingNotice />
          {children}
        </div>
      </div>
    </div>
  );
}

/**
 * docs/product.md "Admin dashboard": a spinner while the lists load. With JavaScript a tab, filter
 * or page change keeps the old list on screen until the new one arrives, so this says that it is
 * coming (a polite live region, so screen readers hear it too). Without JavaScript the browser's
 * own loading indicator does the job.
 */
function LoadingNotice() {
  const navigation = useNavigation();
  const loading =
    navigation.state === "loading" && navigation.location.pathname.startsWith("/admin");
  return (
    <div role="status" aria-live="polite" className="absolute -top-7 right-0 text-sm text-ink-soft">
      {loading ? (
        <span className="inline-flex items-center gap-2">
          <span
            aria-hidden="true"
            className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-none"
          />
          Loading…
        </span>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Admin Dashboard | ATL Creator Studio" },
  { name: "description", content: "Staff area of ATL Creator Studio." },
];
