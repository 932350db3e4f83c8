import { lazy, Suspense, useState } from "react";
import type { PublicUser } from "#app/domain/user";
import type { DashboardData } from "#app/components/dashboard/types";
import type { BookingFormData, BookingFormReply } from "#app/components/booking/types";
import type { IntentReply } from "#app/components/ui/use-schema-form";
import { Hero } from "#app/components/landing/hero";

/** Signed-in only, and it brings the studio's clock: visitors' first load goes without. */
const DashboardSection = lazy(() =>
  import("#app/components/landing/dashboard-section").then((module) => ({
    default: module.DashboardSection,
  })),
);

/**
 * A lazy island (decision 0094). A client-side navigation waits for the chunk (clientLoader), so
 * the page shows whole and a link's #section is there to scroll to.
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
 * docs/product.md "The studio and its visitors". /dashboard renders it with the dashboard first,
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
  bookingForm: BookingFormData | null;
  dashboard: DashboardData | null;
  dashboardFirst?: boolean;
  bookingReply?: BookingFormReply;
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
