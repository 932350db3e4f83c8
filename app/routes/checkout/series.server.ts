import { data, type RouterContextProvider, redirect } from "react-router";
import { holdDeadline, sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import { asSweptAt } from "#app/domain/holds";
import { parseId } from "#app/domain/ids";
import { seriesHeading } from "#app/domain/series-sessions";
import { statusLabel } from "#app/domain/session-list";
import {
  getOwnSeries,
  seriesOfBooking,
  listOrderSessions,
  payableSessions,
} from "#app/models/order.server";
import { checkoutAction } from "#app/routes/checkout/checkout.server";
import { requireUser } from "#app/web/user-context.server";
import { paymentProvider } from "#app/adapters.server";
import { NOTHING_TO_PAY_MESSAGE } from "#app/workflows/checkout.server";
import { db } from "#app/db.server";

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
  return { user, series };
}

type Series = Awaited<ReturnType<typeof requireOwnSeries>>["series"];

export function loadSeriesCheckout(series: Series, now: number) {
  const sessions = listOrderSessions(db, series.id).map((session) => asSweptAt(session, now));
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
    testCards: paymentProvider().name === "sandbox",
  };
}

/**
 * Pays every payable session of the series: the one checkout of an order
 * (routes/checkout/checkout.server.ts), in the series' words.
 */
export function seriesCheckoutAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  series: Series,
) {
  return checkoutAction(
    request,
    context,
    {
      orderId: series.id,
      path: `/checkout/series/${series.id}`,
      notPayable: () => NOTHING_TO_PAY_MESSAGE,
    },
    (transactionId) => redirect(`/booking-success?session_id=${encodeURIComponent(transactionId)}`),
  );
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
