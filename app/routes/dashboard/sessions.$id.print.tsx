import { useHydrated } from "#app/components/ui/use-hydrated";
import { Link } from "react-router";
import { SessionDetailsBody } from "#app/components/dashboard/session-details";
import { sessionDetails } from "#app/routes/dashboard/session-details.server";
import { requireOwnBooking } from "#app/web/own-booking.server";
import type { Route } from "./+types/sessions.$id.print";

/**
 * Download Details, the printable half (docs/product.md "Cancel, refund, reschedule"): the
 * session's details on a page of their own, outside the dashboard, laid out for paper. The
 * site's navigation and footer are left off the printout (app.css, `data-print-sheet`).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const now = Date.now();
  const { booking } = await requireOwnBooking(request, context, params.id, { seenAt: now });
  return { details: sessionDetails(booking, now) };
}

export default function PrintableSession({ loaderData }: Route.ComponentProps) {
  const { details } = loaderData;
  return (
    <article
      data-print-sheet
      aria-labelledby="print-title"
      className="mx-auto max-w-2xl px-5 py-12 sm:px-8 print:max-w-none print:p-0"
    >
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link
          to={`/dashboard/sessions/${details.id}`}
          className="font-semibold text-brand-700 underline"
        >
          Back to Session Details
        </Link>
        <PrintButton />
      </div>
      <div className="card mt-6 p-6 sm:p-8 print:mt-0 print:shadow-none print:ring-0">
        <p className="eyebrow">{details.studio.name}</p>
        <h1 id="print-title" className="mt-2 font-display text-3xl font-bold">
          Session on {details.shortDate}
        </h1>
        <div className="mt-6">
          <SessionDetailsBody details={details} headingLevel={2} />
        </div>
      </div>
    </article>
  );
}

/** Printing needs JavaScript; without it the page says how to print from the browser. */
function PrintButton() {
  if (!useHydrated()) {
    return (
      <p className="text-sm text-ink-soft">Use your browser's Print command (Ctrl+P or ⌘P).</p>
    );
  }
  return (
    <button type="button" className="btn-primary" onClick={() => window.print()}>
      Print
    </button>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [
  {
    title: data
      ? `Session #${data.details.id} on ${data.details.shortDate} | ATL Creator Studio`
      : "Session | ATL Creator Studio",
  },
  { name: "robots", content: "noindex" },
];
