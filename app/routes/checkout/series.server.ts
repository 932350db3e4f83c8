import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider, redirect } from "react-router";
import { holdDeadline, sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import { type CardInput, cardFormSchema, studioMonth } from "#app/domain/card";
import { parseId } from "#app/domain/ids";
import { seriesHeading } from "#app/domain/series-sessions";
import { statusLabel } from "#app/domain/session-list";
import { env } from "#app/env.server";
import { expireHolds } from "#app/models/booking.server";
import {
  getOwnSeries,
  seriesOfBooking,
  listOrderSessions,
  payableSessions,
} from "#app/models/order.server";
import { readForm } from "#app/web/form.server";
import { openHostedReply } from "#app/routes/checkout/checkout.server";
import { replyWithToast } from "#app/web/toast.server";
import { requireUser } from "#app/web/user-context.server";
import { paymentProvider } from "#app/workflows/payment-provider.server";
import {
  chargeSandboxCard,
  NOTHING_TO_PAY_MESSAGE,
  openHostedCheckout,
} from "#app/workflows/checkout.server";

/**
 * Paying a weekly series at once (docs/product.md "Weekly series"): /checkout/series/:seriesId.
 * Only its customer sees it; a visitor is sent to sign in, anyone else (staff too) and a
 * malformed id get 404, as missing.
 */
export async function requireOwnSeries(
  request: Request,
  context: Readonly<RouterContextProvider>,
  idParam: string | undefined,
) {
  const user = await requireUser(request, context);
  const id = parseId(idParam);
  const series = id === null ? undefined : getOwnSeries(id, user.id);
  if (!series) throw data("Not found", { status: 404 });
  // As the dashboard does: a hold that ran out is not offered for payment.
  expireHolds(Date.now());
  return { user, series };
}

type Series = Awaited<ReturnType<typeof requireOwnSeries>>["series"];

export function loadSeriesCheckout(series: Series, now: number) {
  const sessions = listOrderSessions(series.id);
  const payable = payableSessions(sessions, now);
  const payableIds = new Set(payable.map((session) => session.id));
  const earliestHold = Math.min(...payable.map((session) => session.holdExpiresAt ?? Infinity));
  return {
    series: {
      id: series.id,
      heading: seriesHeading(series.repeatEvery, sessions),
      sessions: sessions.map((session) => ({
        id: session.id,
        date: sessionDate(session),
        time: sessionTimeRange(session),
        hours: Number(session.hoursNeeded),
        statusLabel: statusLabel(session.status),
        price: session.totalCost,
        payable: payableIds.has(session.id),
      })),
      total: payable.reduce((sum, session) => sum + session.totalCost, 0),
    },
    payable: payable.length > 0,
    problem: payable.length > 0 ? null : NOTHING_TO_PAY_MESSAGE,
    heldUntil: Number.isFinite(earliestHold) ? holdDeadline(earliestHold) : null,
    provider: paymentProvider().checkout,
    testCards: env.PAYMENT_PROVIDER === "sandbox",
  };
}

const HIDDEN_FIELDS = ["cardNumber", "cvv"];

/**
 * Pays every payable session: Stripe Checkout (one line per session) or the sandbox's card,
 * charged once. Failures re-render the form with 'Payment Failed' and the reason, never keeping
 * the card number or CVV.
 */
export async function seriesCheckoutAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  series: Series,
) {
  const now = Date.now();
  const provider = paymentProvider();
  const formData = await readForm(request);
  const refuse = (message: string, status: number) =>
    replyWithToast(
      context,
      formData,
      {
        result: parseWithZod(formData, { schema: cardFormSchema(studioMonth(now)) }).reply({
          formErrors: [message],
          hideFields: HIDDEN_FIELDS,
        }),
      },
      { type: "error", message: "Payment Failed", description: message },
      { status },
    );

  if (payableSessions(listOrderSessions(series.id), now).length === 0) {
    return refuse(NOTHING_TO_PAY_MESSAGE, 409);
  }

  if (provider.checkout === "hosted") {
    return openHostedReply(context, formData, () =>
      openHostedCheckout(series.id, env.APP_URL, `/checkout/series/${series.id}`),
    );
  }

  const submission = parseWithZod(formData, { schema: cardFormSchema(studioMonth(now)) });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: HIDDEN_FIELDS }) }, { status: 400 });
  }
  const charge = chargeSandboxCard(series.id, submission.value as CardInput, now);
  if (!charge.ok) {
    return replyWithToast(
      context,
      formData,
      { result: submission.reply({ formErrors: [charge.message], hideFields: HIDDEN_FIELDS }) },
      { type: "error", message: "Payment Failed", description: charge.message },
      { status: 402 },
    );
  }
  return redirect(`/booking-success?session_id=${encodeURIComponent(charge.transactionId)}`);
}

/**
 * A session of a series is paid with its series (docs/product.md "Weekly series"): one
 * booking's checkout and Pay Now send it to the series checkout, so a session cannot be paid
 * twice, alone and with the series.
 */
export function payWithSeries(booking: { orderId: number | null; userId: number }) {
  const series = seriesOfBooking(booking);
  if (series) throw redirect(`/checkout/series/${series.id}`);
}
