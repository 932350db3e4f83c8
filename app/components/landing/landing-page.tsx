import { lazy, Suspense, useState } from "react";
import type { PublicUser } from "#app/domain/user";
import type { DashboardData } from "#app/components/dashboard/types";
import type { BookingFormData, BookingFormReply } from "#app/components/booking/types";
import type { IntentReply } from "#app/components/ui/use-schema-form";
import { Hero } from "#app/components/landing/hero";

/**
 * Only signed-in customers see the dashboard section, and it brings the studio's clock
 * (date-fns with time zones) and the session lists: visitors' first load goes without. The
 * server renders it whole, so it shows without JavaScript and hydrates when its chunk arrives.
 */
const DashboardSection = lazy(() =>
  import("#app/components/landing/dashboard-section").then((module) => ({
    default: module.DashboardSection,
  })),
);

/**
 * Everything under the hero, a lazy island like the booking form (decision 0094): its texts and
 * components stay out of the first load. The server renders it whole and the browser keeps that
 * HTML, readable and working without JavaScript, until the chunk arrives and hydrates it. A
 * client-side navigation to the page waits for the chunk (the routes' clientLoader calls
 * `loadBelowTheFold`), so the page shows whole at once and a link's #section is there to scroll to.
 */
type BelowTheFoldComponent = typeof import("#app/components/landing/below-the-fold").BelowTheFold;
let loaded: BelowTheFoldComponent | undefined;
export function loadBelowTheFold(): Promise<BelowTheFoldComponent> {
  return import("#app/components/landing/below-the-fold").then((module) => {
    loaded = module.BelowTheFold;
    return loaded;
  });
}
const LazyBelowTheFold = lazy(() =>
  loadBelowTheFold().then((component) => ({ default: component })),
);

/**
 * The one-page site of docs/product.md "The studio and its visitors": hero, features (#features),
 * audiences (#who-is-it-for), FAQ (#faq), booking (#booking), partners, and for signed-in users the
 * dashboard (#dashboard). /dashboard renders it with the dashboard first, directly under the nav,
 * so the page opens on it with and without JavaScript.
 */
export function LandingPage({
  user,
  bookingForm,
  dashboard,
  dashboardFirst = false,
  bookingReply,
  dashboardReply,
}: {
  user: PublicUser | null;
  bookingForm: BookingFormData;
  /** The signed-in customer's dashboard section; null for visitors. */
  dashboard: DashboardData | null;
  dashboardFirst?: boolean;
  /** The answer of /'s action (the booking form's) to the last post. */
  bookingReply?: BookingFormReply;
  /** The answer of /dashboard's action (profile, password, support) to the last post. */
  dashboardReply?: IntentReply;
}) {
  // Chosen once per mount, so the island never remounts (and loses what is typed in it).
  const [BelowTheFold] = useState(() => loaded ?? LazyBelowTheFold);
  const section =
    user && dashboard ? (
      <Suspense fallback={<p className="section text-ink-soft">Loading your dashboard…</p>}>
        <DashboardSection user={user} dashboard={dashboard} reply={dashboardReply} />
      </Suspense>
    ) : null;
  return (
    <>
      {dashboardFirst ? section : null}
      <Hero />
      <Suspense fallback={<p className="section text-ink-soft">Loading…</p>}>
        <BelowTheFold bookingForm={bookingForm} bookingReply={bookingReply} />
      </Suspense>
      {dashboardFirst ? null : section}
    </>
  );
}
