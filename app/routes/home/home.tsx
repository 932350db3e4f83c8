import { lazy, Suspense } from "react";
import { LandingPage, loadBelowTheFold } from "#app/components/landing/landing-page";
import { getUser } from "#app/web/user-context.server";
import { retryAfterHeaders } from "#app/web/rate-limit.server";
import {
  bookedDialog,
  bookingFormAction,
  loadBookingForm,
} from "#app/routes/home/booking-form.server";
import { loadDashboard } from "#app/routes/dashboard/dashboard.server";
import type { Route } from "./+types/home";
import type { StoredForVisitors } from "#app/web/shared-pages.server";
import {
  loadWaitlistClaim,
  signInToClaim,
  withWaitlistClaim,
} from "#app/routes/home/waitlist-form.server";

/**
 * Shown once, after a free booking: its own chunk, out of the landing page's first load
 * (decision 0094). The server renders it open; that HTML stays until the chunk hydrates it.
 */
const BookedDialog = lazy(() =>
  import("#app/components/booking/booked-dialog").then((module) => ({
    default: module.BookedDialog,
  })),
);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getUser(request, context);
  const now = Date.now();
  const url = new URL(request.url);
  // A waitlist offer's e-mail link (docs/product.md "Waitlist"): signed in first.
  if (!user && url.searchParams.has("claim")) throw await signInToClaim();
  return {
    user,
    bookingForm: withWaitlistClaim(loadBookingForm(user, now), loadWaitlistClaim(url, user, now)),
    // The section at the foot of / always shows My Sessions; its tabs lead to /dashboard.
    dashboard: user ? loadDashboard(user, "bookings", now) : null,
    booked: bookedDialog(url, user),
  };
}

export const handle = { storedForVisitors: true } satisfies StoredForVisitors;

/**
 * In the browser, a navigation to the page also waits for the landing page's lazy part (see
 * LandingPage), so it shows whole. Not run when the page is first loaded: it hydrates as served.
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), loadBelowTheFold()]);
  return data;
}

/** The booking form's posts: free times, coupon, booking (services/booking-form.server.ts). */
export async function action({ request, context }: Route.ActionArgs) {
  return bookingFormAction(request, context, await getUser(request, context));
}

/** A limited coupon lookup's or booking's Retry-After reaches the page too. */
export const headers: Route.HeadersFunction = retryAfterHeaders;

export const meta: Route.MetaFunction = () => [
  { title: "ATL Creator Studio | Podcast & video recording studio in Atlanta" },
  {
    name: "description",
    content:
      "Book a professional podcast and video recording studio in Atlanta by the hour. Pro equipment, an in-house engineer with every session, open 24/7.",
  },
];

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <LandingPage
        user={loaderData.user}
        bookingForm={loaderData.bookingForm}
        dashboard={loaderData.dashboard}
        bookingReply={actionData}
      />
      {loaderData.booked ? (
        <Suspense fallback={null}>
          <BookedDialog />
        </Suspense>
      ) : null}
    </>
  );
}
