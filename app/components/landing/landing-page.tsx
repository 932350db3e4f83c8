import { lazy, Suspense } from "react";
import type { PublicUser } from "../../models/user.server";
import type { DashboardData } from "../../services/dashboard/dashboard.server";
import type { BookingFormData } from "../booking/types";
import { Audiences } from "./audiences";
import { BookingInfo } from "./booking-info";
import { Faq } from "./faq";
import { Features } from "./features";
import { Hero } from "./hero";
import { Partnership } from "./partnership";

/**
 * Only signed-in customers see the dashboard section, and it brings the studio's clock
 * (date-fns with time zones) and the session lists: visitors' first load goes without. The
 * server renders it whole, so it shows without JavaScript and hydrates when its chunk arrives.
 */
const DashboardSection = lazy(() =>
  import("./dashboard-section").then((module) => ({ default: module.DashboardSection })),
);

/**
 * The one-page site of spec section 1: hero, features (#features), audiences
 * (#who-is-it-for), FAQ (#faq), booking (#booking), partners, and for signed-in users the
 * dashboard (#dashboard). /dashboard renders it with the dashboard first, directly under
 * the nav, so the page opens on it with and without JavaScript.
 */
export function LandingPage({
  user,
  bookingForm,
  dashboard,
  dashboardFirst = false,
}: {
  user: PublicUser | null;
  bookingForm: BookingFormData;
  /** The signed-in customer's dashboard section; null for visitors. */
  dashboard: DashboardData | null;
  dashboardFirst?: boolean;
}) {
  const section =
    user && dashboard ? (
      <Suspense fallback={<p className="section text-ink-soft">Loading your dashboard…</p>}>
        <DashboardSection user={user} dashboard={dashboard} />
      </Suspense>
    ) : null;
  return (
    <>
      {dashboardFirst ? section : null}
      <Hero />
      <Features />
      <Audiences />
      <Faq />
      <BookingInfo bookingForm={bookingForm} />
      <Partnership />
      {dashboardFirst ? null : section}
    </>
  );
}
