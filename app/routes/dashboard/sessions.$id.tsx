import { Link, useSearchParams } from "react-router";
import { SessionDetailsBody } from "#app/components/dashboard/session-details";
import { ReceiptsList } from "#app/components/receipts-list";
import { RouteDialog } from "#app/components/ui/route-dialog";
import { receiptLink } from "#app/domain/receipts";
import { listBookingReceipts } from "#app/models/receipt.server";
import { sessionListParam } from "#app/domain/session-list";
import { sessionDetails } from "#app/routes/dashboard/session-details.server";
import { YourFiles } from "#app/components/dashboard/session-files";
import { customerSessionFiles } from "#app/routes/dashboard/session-files.server";
import { requireOwnBooking } from "#app/web/own-booking.server";
import { SeriesSiblings } from "#app/components/series/series-siblings";
import { seriesSiblings } from "#app/routes/series-siblings.server";
import type { Route } from "./+types/sessions.$id";

/**
 * Session Details (docs/product.md "Screens"): one of the customer's own sessions, over the
 * dashboard.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const now = Date.now();
  const { booking } = await requireOwnBooking(request, context, params.id, { seenAt: now });
  return {
    details: sessionDetails(booking, now),
    files: customerSessionFiles(booking),
    receipts: listBookingReceipts(booking.id).map(receiptLink),
    series: seriesSiblings(booking, "customer", now),
  };
}

export default function SessionDetailsDialog({ loaderData }: Route.ComponentProps) {
  const { details, files } = loaderData;
  const base = `/dashboard/sessions/${details.id}`;
  // Opened from Past Sessions (?list=past): that list stays behind the dialog and Close returns to it.
  const [params] = useSearchParams();
  const closeTo = `/dashboard?tab=bookings${sessionListParam(params.get("list")) === "past" ? "&list=past" : ""}`;
  return (
    <RouteDialog title="Session Details" closeTo={closeTo} wide>
      <SessionDetailsBody details={details} />
      {loaderData.series ? <SeriesSiblings data={loaderData.series} className="mt-6" /> : null}
      <YourFiles data={files} bookingId={details.id} />
      <ReceiptsList receipts={loaderData.receipts} />
      <div className="mt-8 border-t border-line pt-6">
        <h3 className="font-display text-base font-bold">Download Details</h3>
        <div className="mt-2 flex flex-wrap gap-2">
          {/* A file, not a page: the browser downloads it rather than the router navigating. */}
          <a
            href={`/api/bookings/${details.id}/ics`}
            download
            className="btn-secondary px-4 py-2 text-sm text-ink"
          >
            Add to calendar (.ics)
          </a>
          <Link to={`${base}/print`} className="btn-secondary px-4 py-2 text-sm text-ink">
            Printable page
          </Link>
        </div>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          {details.cancellable ? (
            <Link
              to={`${base}/cancel`}
              preventScrollReset
              className="btn-secondary border-brand-700 text-brand-700 hover:bg-brand-50"
            >
              Request Cancellation
            </Link>
          ) : null}
          {details.reschedulable ? (
            <Link to={`${base}/reschedule`} preventScrollReset className="btn-secondary text-ink">
              Reschedule
            </Link>
          ) : null}
          {details.payable ? (
            <Link to={`${base}/pay`} preventScrollReset className="btn-primary">
              Pay Now
            </Link>
          ) : null}
          <Link to={closeTo} preventScrollReset className="btn-primary">
            Close
          </Link>
        </div>
      </div>
    </RouteDialog>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `Session Details${data ? ` #${data.details.id}` : ""} | ATL Creator Studio` },
  { name: "robots", content: "noindex" },
];
