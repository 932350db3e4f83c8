import { Link, useLocation } from "react-router";
import type { PublicUser } from "#app/domain/user";
import type { DashboardData } from "#app/components/dashboard/types";
import type { DashboardTab } from "#app/domain/dashboard";
import { ProfilePanel } from "#app/components/dashboard/profile-panel";
import type { IntentReply } from "#app/components/ui/use-schema-form";
import { SessionsPanel } from "#app/components/dashboard/sessions-panel";
import { SupportPanel } from "#app/components/dashboard/support-panel";
import { SectionLink } from "#app/components/site-nav";
import { RATES } from "#app/components/landing/studio";
import { Icon } from "#app/components/landing/icons";
import { WaitlistPanel } from "#app/components/dashboard/waitlist-panel";
import { RouteTabs } from "#app/components/ui/route-tabs";

/** The original site had the first two; Help & Support is ours. */
const TABS: { id: DashboardTab; label: string }[] = [
  { id: "bookings", label: "My Sessions" },
  { id: "profile", label: "Profile Settings" },
  { id: "support", label: "Help & Support" },
];

/**
 * docs/product.md "Client dashboard". The tabs are links, so they work without JavaScript;
 * with it, Headless UI's tabs (components/ui/route-tabs.tsx).
 */
export function DashboardSection({
  user,
  dashboard,
  reply,
}: {
  user: PublicUser;
  dashboard: DashboardData;
  reply?: IntentReply;
}) {
  const onDashboard = useLocation().pathname === "/dashboard";
  const active = dashboard.tab;
  const fullName = `${user.firstName} ${user.lastName}`;

  return (
    <section id="dashboard" aria-labelledby="dashboard-title" className="dashboard-bg">
      <div className="mx-auto max-w-6xl px-5 py-14 sm:px-8 md:py-20">
        <div className="flex flex-wrap items-end justify-between gap-6">
          <div>
            <p className="eyebrow">My account</p>
            <h2
              id="dashboard-title"
              className="mt-3 font-display text-3xl leading-tight font-bold tracking-tight md:text-4xl"
            >
              Welcome back, {user.firstName}
            </h2>
            <p className="mt-3 text-lg text-ink-soft">Your sessions and details in one place.</p>
          </div>
          <div className="flex flex-wrap gap-3">
            {user.isAdmin ? (
              <Link to="/admin" className="btn-secondary text-ink">
                <Icon name="shield" className="size-5" />
                Admin dashboard
              </Link>
            ) : null}
            <SectionLink id="booking" className="btn-primary">
              Book a session
            </SectionLink>
          </div>
        </div>

        {/* minmax(0, …): a long e-mail or a wide table scrolls inside its card instead of
            widening the page past a 320 px screen. The sessions come first in the document
            (and on a phone); from md the summary takes the narrow left column. */}
        <div className="mt-10 grid grid-cols-[minmax(0,1fr)] gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
          <div className="card min-w-0 overflow-hidden md:col-start-2">
            <nav aria-label="Dashboard" className="border-b border-line px-2 sm:px-4">
              <RouteTabs
                className="flex flex-wrap gap-x-1"
                // Only /dashboard is the page these links lead to; elsewhere they lead away.
                selected={onDashboard ? TABS.findIndex((tab) => tab.id === active) : -1}
                tabs={TABS.map((tab) => ({
                  to: `/dashboard?tab=${tab.id}`,
                  // From / the dashboard opens at its top, where this section comes first.
                  preventScrollReset: onDashboard,
                  "aria-current": onDashboard && active === tab.id ? "page" : undefined,
                  className:
                    "-mb-px inline-block border-b-2 border-transparent px-3 py-4 font-semibold text-ink-soft hover:text-ink aria-[current=page]:border-brand-600 aria-[current=page]:text-ink sm:px-4",
                  children: tab.label,
                }))}
              />
            </nav>
            <div className="p-6 sm:p-8">
              {dashboard.sessions ? <SessionsPanel data={dashboard.sessions} /> : null}
              {dashboard.waitlist ? <WaitlistPanel rows={dashboard.waitlist} /> : null}
              {dashboard.profile ? (
                <ProfilePanel user={user} data={dashboard.profile} reply={reply} />
              ) : null}
              {dashboard.support ? (
                <SupportPanel user={user} data={dashboard.support} reply={reply} />
              ) : null}
            </div>
          </div>

          <div className="card p-6 md:col-start-1 md:row-start-1">
            <div className="flex items-center gap-4">
              <span
                aria-hidden="true"
                className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-600 font-display font-bold text-white"
              >
                {user.firstName.charAt(0).toUpperCase()}
                {user.lastName.charAt(0).toUpperCase()}
              </span>
              <div className="min-w-0">
                <h3 className="truncate font-display text-lg font-bold">Account summary</h3>
                <p className="truncate text-sm text-ink-soft">@{user.username}</p>
              </div>
            </div>
            <dl className="mt-6 space-y-4 text-[0.9375rem]">
              <SummaryRow label="Full name" value={fullName} />
              <SummaryRow label="Business" value={user.businessName || "Personal Account"} />
              <SummaryRow label="E-mail" value={user.email} />
              <SummaryRow label="Phone" value={user.phoneNumber} />
              <SummaryRow
                label="Your rate"
                value={
                  user.isStakeholder
                    ? `Stakeholder · $${RATES.stakeholder}/hour`
                    : `Non-member · $${RATES.nonMember}/hour`
                }
              />
            </dl>
          </div>
        </div>
      </div>
    </section>
  );
}

function SummaryRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-0.5 border-b border-line pb-4 last:border-b-0 last:pb-0">
      <dt className="text-sm text-ink-soft">{label}</dt>
      <dd className="font-semibold [overflow-wrap:anywhere]">{value}</dd>
    </div>
  );
}
