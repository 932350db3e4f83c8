import { Link, useLocation, useSearchParams } from "react-router";
import type { PublicUser } from "../../models/user.server";
import { SectionLink } from "../site-nav";
import { RATES, STUDIO } from "./studio";
import { Icon } from "./icons";

const TABS = [
  { id: "bookings", label: "My Sessions" },
  { id: "profile", label: "Profile Settings" },
] as const;
type TabId = (typeof TABS)[number]["id"];

/**
 * The signed-in customer's corner of the landing page (spec section 2, "Client dashboard").
 * The tabs are links (?tab=bookings|profile), so they work without JavaScript and can be
 * shared. Their contents arrive in later issues: the panels below are marked slots.
 */
export function DashboardSection({ user }: { user: PublicUser }) {
  const [searchParams] = useSearchParams();
  const { pathname } = useLocation();
  const active: TabId = searchParams.get("tab") === "profile" ? "profile" : "bookings";
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

        <div className="mt-10 grid gap-6 md:grid-cols-[1fr_2fr]">
          <div className="card p-6">
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

          <div className="card overflow-hidden">
            <nav aria-label="Dashboard" className="border-b border-line px-2 sm:px-4">
              <ul className="flex gap-1">
                {TABS.map((tab) => (
                  <li key={tab.id}>
                    <Link
                      to={`/dashboard?tab=${tab.id}`}
                      // Switching tabs on /dashboard keeps the page where it is; from / the
                      // dashboard page opens at its top, where this section comes first.
                      preventScrollReset={pathname === "/dashboard"}
                      aria-current={active === tab.id ? "page" : undefined}
                      className="-mb-px inline-block border-b-2 border-transparent px-3 py-4 font-semibold text-ink-soft hover:text-ink aria-[current=page]:border-brand-600 aria-[current=page]:text-ink sm:px-4"
                    >
                      {tab.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="p-6 sm:p-8">
              {active === "bookings" ? <SessionsPanelSlot /> : <ProfilePanelSlot />}
            </div>
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
      <dd className="font-semibold break-words">{value}</dd>
    </div>
  );
}

/** SLOT: the My Sessions tables (upcoming / past) replace this in the dashboard issue. */
function SessionsPanelSlot() {
  return (
    <PendingPanel
      slot="dashboard-sessions"
      icon="calendar"
      title="My Sessions"
      href={`mailto:${STUDIO.email}`}
      linkText={`Ask about a booking: ${STUDIO.email}`}
    >
      Your upcoming and past sessions will be listed here, with their status and total. This part of
      your account is on its way; until then we confirm every booking by e-mail.
    </PendingPanel>
  );
}

/** SLOT: the Profile Settings form replaces this in the dashboard issue. */
function ProfilePanelSlot() {
  return (
    <PendingPanel
      slot="dashboard-profile"
      icon="user"
      title="Profile Settings"
      href={`mailto:${STUDIO.email}?subject=${encodeURIComponent("Profile update")}`}
      linkText={`E-mail ${STUDIO.email}`}
    >
      Editing your details online is coming soon. To change your name, business, e-mail, phone or
      stakeholder status today, write to us and we will update your account.
    </PendingPanel>
  );
}

/** An honest "not online yet" panel with a way to reach the studio instead. */
function PendingPanel({
  slot,
  icon,
  title,
  href,
  linkText,
  children,
}: {
  slot: string;
  icon: "calendar" | "user";
  title: string;
  href: string;
  linkText: string;
  children: React.ReactNode;
}) {
  return (
    <div data-slot={slot} className="text-center sm:py-6">
      <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-600">
        <Icon name={icon} className="size-7" />
      </span>
      <h3 className="mt-4 font-display text-lg font-bold">{title}</h3>
      <p className="mx-auto mt-2 max-w-md leading-relaxed text-ink-soft">{children}</p>
      <a
        href={href}
        className="mt-5 inline-flex font-semibold text-brand-600 underline-offset-4 hover:underline"
      >
        {linkText}
      </a>
    </div>
  );
}
