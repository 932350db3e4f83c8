import { lazy, Suspense } from "react";
import type { PublicUser } from "#app/domain/user";
import type { DashboardData } from "#app/components/dashboard/types";
import type { BookingFormData, BookingFormReply } from "#app/components/booking/types";
import type { IntentReply } from "#app/components/ui/use-schema-form";
import { Audiences } from "#app/components/landing/audiences";
import { BookingInfo } from "#app/components/landing/booking-info";
import { Faq } from "#app/components/landing/faq";
import { Features } from "#app/components/landing/features";
import { Hero } from "#app/components/landing/hero";
import { Partnership } from "#app/components/landing/partnership";

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
      <Features />
      <Audiences />
      <Faq />
      <BookingInfo bookingForm={bookingForm} bookingReply={bookingReply} />
      <Partnership />
      {dashboardFirst ? null : section}
    </>
  );
}
