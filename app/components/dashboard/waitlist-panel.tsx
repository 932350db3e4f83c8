import { Form, Link } from "react-router";
import { HydratedField } from "#app/components/ui/hydrated-field";

/** docs/product.md "Waitlist". */
export type WaitlistRow = {
  id: number;
  date: string;
  time: string;
  hours: number;
  offer: { until: string; claimUrl: string } | null;
};

export const WAITLIST_REMOVE_INTENT = "remove-waitlist";

/** A plain post, so Remove works without JavaScript. */
export function WaitlistPanel({ rows }: { rows: WaitlistRow[] }) {
  return (
    <section id="waitlist" aria-labelledby="waitlist-title" className="mt-8">
      <h3 id="waitlist-title" className="font-display text-lg font-bold">
        Waitlist
      </h3>
      {rows.length === 0 ? (
        <p className="mt-2 text-ink-soft">
          You are not waiting for any time. When a start time you want is booked, the booking form
          offers to tell you if it frees up.
        </p>
      ) : (
        <ul className="mt-3 space-y-3">
          {rows.map((row) => (
            <li
              key={row.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-xl p-4 ring-1 ring-line"
            >
              <div>
                <p className="font-semibold">{row.date}</p>
                <p className="text-sm text-ink-soft">
                  {row.time} · {row.hours} hours
                </p>
                <p className="text-sm">
                  {row.offer
                    ? `Free now and held for you until ${row.offer.until}.`
                    : "Waiting: we e-mail you if it frees up."}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                {row.offer ? (
                  <Link to={row.offer.claimUrl} className="btn-primary">
                    Book this time
                    <span className="sr-only"> on {row.date}</span>
                  </Link>
                ) : null}
                <Form method="post" action="/dashboard?tab=bookings">
                  <HydratedField />
                  <input type="hidden" name="id" value={row.id} />
                  <button
                    type="submit"
                    name="intent"
                    value={WAITLIST_REMOVE_INTENT}
                    className="btn-secondary text-ink"
                  >
                    Remove<span className="sr-only"> the waitlist entry for {row.date}</span>
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
