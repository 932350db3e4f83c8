import type { PublicUser } from "../../models/user.server";
import type { DashboardData } from "../../services/dashboard/dashboard.server";
import type { BookingFormData } from "../booking/types";
import { Audiences } from "./audiences";
import { BookingInfo } from "./booking-info";
import { DashboardSection } from "./dashboard-section";
import { Faq } from "./faq";
import { Features } from "./features";
import { Hero } from "./hero";
import { Partnership } from "./partnership";

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
  const section = user && dashboard ? <DashboardSection user={user} dashboard={dashboard} /> : null;
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
