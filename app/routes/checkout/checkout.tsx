import { redirect } from "react-router";
import { PaySection } from "#app/components/booking/pay-section";
import { PriceLine, PriceTotal } from "#app/components/booking/price-lines";
import { formatDollars, formatQuoteAmount } from "#app/domain/pricing";
import { bookingTarget, checkoutAction, loadCheckout } from "#app/routes/checkout/checkout.server";
import { requireOwnBooking } from "#app/web/own-booking.server";
import { payWithSeries } from "#app/routes/checkout/series.server";
import type { Route } from "./+types/checkout";

/**
 * The payment step after booking (docs/product.md "Complete Your Payment", the card form). The Pay
 * Now dialog of the dashboard shares its loader and action (services/payments/checkout.server.ts).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const now = Date.now();
  const { booking } = await requireOwnBooking(request, context, params.bookingId, { seenAt: now });
  payWithSeries(booking);
  return loadCheckout(booking, now);
}

/** Pays by card (sandbox) or opens Stripe Checkout; the result page verifies the payment. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { booking } = await requireOwnBooking(request, context, params.bookingId);
  payWithSeries(booking);
  return checkoutAction(request, context, bookingTarget(booking), (transactionId) =>
    redirect(`/booking-success?session_id=${encodeURIComponent(transactionId)}`),
  );
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, payable, problem, heldUntil, provider, testCards } = loaderData;
  return (
    <div className="mx-auto grid max-w-5xl gap-8 px-5 py-12 sm:px-8 md:grid-cols-[1fr_1.1fr] md:py-16">
      <section aria-labelledby="summary-title" className="card h-fit p-6 sm:p-8">
        <p className="eyebrow">Booking #{booking.id}</p>
        <h1 id="summary-title" className="mt-2 font-display text-2xl font-bold">
          {payable ? "Complete Your Payment" : "Your booking"}
        </h1>
        <dl className="mt-6 space-y-3 text-[0.9375rem]">
          <Row label="Date" value={booking.date} />
          <Row label="Time" value={`${booking.time} (Atlanta time)`} />
          <Row label="Duration" value={`${booking.hours} hours`} />
          <Row label="Guests" value={booking.guests} />
          <Row label="Status" value={booking.statusLabel} />
          {booking.lines.map((line) => (
            <PriceLine key={line.key} label={line.label} amount={formatQuoteAmount(line)} />
          ))}
          <PriceTotal amount={formatDollars(booking.totalCost)} />
        </dl>
        {payable && heldUntil ? (
          <p className="mt-6 rounded-xl bg-gold-300/30 p-4 text-sm">
            We hold this time slot for you until <strong>{heldUntil}</strong>. If it is not paid by
            then, the slot is released.
          </p>
        ) : null}
      </section>

      <PaySection
        payable={payable}
        problem={problem}
        provider={provider}
        total={booking.totalCost}
        result={actionData?.result}
        testCards={testCards}
      />
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-ink-soft">{label}</dt>
      <dd className="text-right font-medium">{value}</dd>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Complete Your Payment | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
