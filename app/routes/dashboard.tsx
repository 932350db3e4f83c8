import { LandingPage } from "../components/landing/landing-page";
import { requireUser } from "../services/auth.server";
import { loadBookingForm } from "../services/booking-form.server";
import type { Route } from "./+types/dashboard";

/**
 * /dashboard is the landing page opened on its dashboard section. The section is rendered
 * first, so the page opens on it with and without JavaScript (no scroll script needed).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { user, bookingForm: loadBookingForm(user, Date.now()) };
}

export const meta: Route.MetaFunction = () => [
  { title: "My Account | ATL Creator Studio" },
  { name: "description", content: "Your sessions and account details at ATL Creator Studio." },
];

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return <LandingPage user={loaderData.user} bookingForm={loaderData.bookingForm} dashboardFirst />;
}
