import { Link } from "react-router";
import { PaymentForm } from "#app/components/booking/card-form";
import { RouteDialog } from "#app/components/ui/route-dialog";
import { formatDollars } from "#app/domain/pricing";
import { bookingTarget, checkoutAction, loadCheckout } from "#app/routes/checkout/checkout.server";
import { requireOwnBooking } from "#app/web/own-booking.server";
import { payWithSeries } from "#app/routes/checkout/series.server";
import { redirectWithSuccess } from "#app/web/toast.server";
import type { Route } from "./+types/sessions.$id.pay";

const CLOSE_TO = "/dashboard?tab=bookings";

/**
 * Pay Now (docs/product.md "Complete Your Payment"): the checkout's payment form in a dialog
 * over the dashboard. A paid booking goes back to the list, which then confirms the payment
 * and says what happens next (`?paid=<id>`).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const now = Date.now();
  const { booking } = await requireOwnBooking(request, context, params.id, { seenAt: now });
  payWithSeries(booking);
  return loadCheckout(booking, now);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { booking } = await requireOwnBooking(request, context, params.id);
  payWithSeries(booking);
  return checkoutAction(request, context, bookingTarget(booking), () =>
    redirectWithSuccess(`/dashboard?tab=bookings&paid=${booking.id}`, {
      message: "Payment Successful!",
      description: "Your booking has been confirmed.",
    }),
  );
}

export default function PayNowDialog({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, payable, problem, heldUntil, provider, testCards } = loaderData;
  return (
    <RouteDialog title="Complete Your Payment" closeTo={CLOSE_TO}>
      <div className="rounded-xl bg-paper p-4 text-[0.9375rem] ring-1 ring-line">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="font-semibold">Booking #{booking.id}</p>
          <p className="font-display text-xl font-bold tabular-nums">
            {formatDollars(booking.totalCost)}
          </p>
        </div>
        <p className="mt-1 text-ink-soft">
          {booking.date}, {booking.time} (Atlanta time) · {booking.hours} hours
        </p>
        {booking.discountAmount > 0 ? (
          <p className="mt-1 text-sm text-ink-soft">
            Includes a {formatDollars(booking.discountAmount)} discount
            {booking.couponCode ? ` (${booking.couponCode})` : ""}.
          </p>
        ) : null}
      </div>
      {payable ? (
        <>
          {heldUntil ? (
            <p className="mt-4 rounded-xl bg-gold-300/30 p-3 text-sm">
              We hold this time slot for you until <strong>{heldUntil}</strong>.
            </p>
          ) : null}
          <PaymentForm
            provider={provider}
            total={booking.totalCost}
            result={actionData?.result}
            testCards={testCards}
          />
        </>
      ) : (
        <>
          <p role="status" className="mt-4 font-semibold">
            {problem}
          </p>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <Link
              to={`/dashboard/sessions/${booking.id}`}
              preventScrollReset
              className="btn-secondary text-ink"
            >
              View details
            </Link>
            <Link to={CLOSE_TO} preventScrollReset className="btn-primary">
              Close
            </Link>
          </div>
        </>
      )}
    </RouteDialog>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Complete Your Payment | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
