import { PaySection } from "#app/components/booking/pay-section";
import { PriceTotal } from "#app/components/booking/price-lines";
import { formatDollars } from "#app/domain/pricing";
import {
  loadSeriesCheckout,
  requireOwnSeries,
  seriesCheckoutAction,
} from "#app/routes/checkout/series.server";
import type { Route } from "./+types/series";

/**
 * Paying a weekly series in one go (docs/product.md "Weekly series"): every session with its
 * price, the total of those still to pay, and one payment form.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { series } = await requireOwnSeries(request, context, params.seriesId);
  return loadSeriesCheckout(series, Date.now());
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { series } = await requireOwnSeries(request, context, params.seriesId);
  return seriesCheckoutAction(request, context, series);
}

export default function SeriesCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { series, payable, problem, heldUntil, provider, testCards } = loaderData;
  return (
    <div className="mx-auto grid max-w-5xl gap-8 px-5 py-12 sm:px-8 md:grid-cols-[1fr_1.1fr] md:py-16">
      <section aria-labelledby="summary-title" className="card h-fit p-6 sm:p-8">
        <p className="eyebrow">{series.heading}</p>
        <h1 id="summary-title" className="mt-2 font-display text-2xl font-bold">
          {payable ? "Pay for your series" : "Your series"}
        </h1>
        <ol aria-label="Sessions" className="mt-6 space-y-3 text-[0.9375rem]">
          {series.sessions.map((session) => (
            <li
              key={session.id}
              className="flex justify-between gap-4 border-b border-line pb-3 last:border-b-0"
            >
              <div>
                <p className="font-medium">{session.date}</p>
                <p className="text-ink-soft">
                  {`${session.time} (Atlanta time) · ${session.hours} hours · #${session.id}`}
                </p>
                {session.payable ? null : (
                  <p className="text-sm text-ink-soft">
                    {session.statusLabel}: not in this payment
                  </p>
                )}
              </div>
              <p
                className={`shrink-0 tabular-nums ${session.payable ? "" : "line-through text-ink-soft"}`}
              >
                {formatDollars(session.price)}
              </p>
            </li>
          ))}
        </ol>
        <dl className="mt-4">
          <PriceTotal amount={formatDollars(series.total)} />
        </dl>
        {payable && heldUntil ? (
          <p className="mt-6 rounded-xl bg-gold-300/30 p-4 text-sm">
            We hold these time slots for you until <strong>{heldUntil}</strong>. If they are not
            paid by then, they are released.
          </p>
        ) : null}
      </section>

      <PaySection
        payable={payable}
        problem={problem}
        provider={provider}
        total={series.total}
        result={actionData?.result}
        testCards={testCards}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Pay for your series | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
