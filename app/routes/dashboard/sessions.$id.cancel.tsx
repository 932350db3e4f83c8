import { Form, Link, useNavigation } from "react-router";
import { RouteDialog } from "#app/components/ui/route-dialog";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import type { RefundQuote } from "#app/domain/cancellation";
import { formatDollars } from "#app/domain/pricing";
import { cancellationQuote, cancelProblem } from "#app/models/cancellation.server";
import { cancelOwnBooking } from "#app/workflows/cancel-booking.server";
import { Refusal } from "#app/domain/refusal";
import { requireOwnBooking } from "#app/web/own-booking.server";
import { env } from "#app/env.server";
import { readForm } from "#app/web/form.server";
import { PaymentServiceError } from "#app/workflows/payment-provider.server";
import { redirectWithSuccess } from "#app/web/toast.server";
import { FormErrors } from "#app/components/ui/error-list";
import type { Route } from "./+types/sessions.$id.cancel";
import { SeriesCancelChoice } from "#app/components/dashboard/series-cancel-choice";
import {
  cancelFailure,
  cancelFollowingFromForm,
  cancelRefused,
  cancelScopeOf,
  refundShown,
  SCOPE_MESSAGE,
  seriesCancelChoice,
} from "#app/routes/dashboard/series-cancel.server";
import { db } from "#app/db.server";

/**
 * Cancel (My Sessions) and Request Cancellation (Session Details): the exact refund is shown
 * before the customer confirms, and the confirmation carries it, so the server refuses if the
 * 24-hour line was crossed while the dialog stood open instead of refunding a different sum.
 */
const BACK = "/dashboard?tab=bookings";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const now = Date.now();
  const { booking } = await requireOwnBooking(request, context, params.id, { seenAt: now });
  const problem = cancelProblem(db, booking, now);
  return {
    booking: {
      id: booking.id,
      date: sessionDate(booking),
      time: sessionTimeRange(booking),
    },
    problem,
    quote: problem ? null : cancellationQuote(db, booking, now, env.CANCELLATION_FEE_PERCENT),
    feePercent: env.CANCELLATION_FEE_PERCENT,
    following: problem ? null : seriesCancelChoice(booking, now),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, booking } = await requireOwnBooking(request, context, params.id);
  const formData = await readForm(request);
  const expectedRefund = refundShown(formData, "expectedRefund");
  const fail = cancelFailure(context, formData);
  const scope = cancelScopeOf(formData);
  if (scope === null) return fail(SCOPE_MESSAGE, 400);
  if (scope === "following") {
    return cancelFollowingFromForm(context, formData, booking, user.id, BACK);
  }
  if (expectedRefund === null) return fail("Please review the refund and confirm again.", 400);

  try {
    const { quote } = await cancelOwnBooking(
      { bookingId: booking.id, userId: user.id, expectedRefund },
      Date.now(),
    );
    return redirectWithSuccess(BACK, {
      message: "Session cancelled",
      description: `Booking #${booking.id} is cancelled. ${refundSentence(quote)}`,
    });
  } catch (error) {
    if (error instanceof Refusal) return cancelRefused(context, formData, error);
    if (error instanceof PaymentServiceError) return fail(error.message, 502);
    throw error;
  }
}

export default function CancelSession({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, problem, quote, feePercent, following } = loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <RouteDialog title="Cancel this session?" closeTo={BACK}>
      <p className="text-ink-soft">
        Booking #{booking.id}: {booking.date}, {booking.time} (Atlanta time).
      </p>
      {problem || !quote ? (
        <>
          <p className="mt-4" role="alert">
            {problem}
          </p>
          <Link to={BACK} preventScrollReset className="btn-primary mt-6 w-full">
            Back to my sessions
          </Link>
        </>
      ) : (
        <Form method="post" preventScrollReset className="mt-4">
          <HydratedField />
          <input type="hidden" name="expectedRefund" value={quote.refund} />
          <RefundSummary quote={quote} feePercent={feePercent} />
          {following ? <SeriesCancelChoice oneRefund={quote.refund} following={following} /> : null}
          <FormErrors
            errors={actionData ? [actionData.message] : null}
            className="mt-4 font-semibold"
          />
          <div className="mt-6 flex flex-col gap-3 sm:flex-row-reverse">
            <button type="submit" className="btn-primary sm:flex-1" disabled={busy}>
              {busy
                ? "Cancelling…"
                : following
                  ? "Confirm cancellation"
                  : quote.refund > 0
                    ? `Cancel and refund ${formatDollars(quote.refund)}`
                    : "Cancel session"}
            </button>
            <Link to={BACK} preventScrollReset className="btn-secondary text-ink sm:flex-1">
              Keep my session
            </Link>
          </div>
        </Form>
      )}
    </RouteDialog>
  );
}

function RefundSummary({ quote, feePercent }: { quote: RefundQuote; feePercent: number }) {
  if (quote.kind === "unpaid") {
    return <p>Nothing has been paid for this booking, so cancelling costs nothing.</p>;
  }
  return (
    <>
      <p>
        {quote.kind === "full"
          ? "The session is at least 24 hours away, so you get a full refund."
          : `The session starts in less than 24 hours, so a cancellation fee of ${feePercent}% of what you paid is kept.`}
      </p>
      <dl className="mt-4 space-y-2 rounded-xl bg-paper p-4 ring-1 ring-line">
        <div className="flex justify-between gap-4">
          <dt className="text-ink-soft">You paid</dt>
          <dd className="font-medium">{formatDollars(quote.paid)}</dd>
        </div>
        {quote.kind === "late" ? (
          <div className="flex justify-between gap-4">
            <dt className="text-ink-soft">Cancellation fee</dt>
            <dd className="font-medium">−{formatDollars(quote.fee)}</dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-4 border-t border-line pt-2 text-lg">
          <dt className="font-bold">Refund to your card</dt>
          <dd className="font-bold">{formatDollars(quote.refund)}</dd>
        </div>
      </dl>
    </>
  );
}

/** The refund in one sentence, for the toast after cancelling. */
function refundSentence(quote: RefundQuote): string {
  if (quote.kind === "unpaid") return "Nothing was charged.";
  if (quote.kind === "full") return `${formatDollars(quote.refund)} is refunded to your card.`;
  return `${formatDollars(quote.refund)} is refunded to your card; a ${formatDollars(quote.fee)} cancellation fee was kept.`;
}

export const meta: Route.MetaFunction = () => [
  { title: "Cancel session | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
