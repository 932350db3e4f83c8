import type { Booking } from "#db/schema";
import { writeTransaction } from "#app/db.server";
import { sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import type { CardInput } from "#app/domain/card";
import { seriesPaymentReference } from "#app/domain/series-sessions";
import { logError } from "#app/log.server";
import {
  type CheckoutSession,
  type HostedCheckoutProvider,
  PaymentProviderError,
} from "#app/integrations/payments/types";
import { accountEmail } from "#app/models/user.server";
import {
  abandonSeriesCheckoutPlan,
  getSeries,
  listSeriesBookings,
  payableSessions,
  planSeriesCheckout,
  type SeriesCheckoutPlan,
  storeSeriesCheckoutSession,
} from "#app/models/series.server";
import { ALREADY_PAID_MESSAGE } from "#app/models/payment.server";
import { recordCheckoutSession } from "#app/workflows/fulfil-payment.server";
import { recordSeriesPayment } from "#app/workflows/fulfil-series-payment.server";
import {
  CheckoutUnavailableError,
  hostedProvider,
  lookUpCheckout,
  successUrl,
} from "#app/workflows/checkout.server";
import {
  PAYMENT_SERVICE_UNAVAILABLE_MESSAGE,
  paymentProvider,
} from "#app/workflows/payment-provider.server";

/**
 * Paying a weekly series in one checkout (docs/product.md "Weekly series"): every session still
 * payable, each for its own stored total, never an amount from the browser. The same shape as
 * one booking's checkout (workflows/checkout.server.ts): the sandbox charges the card once and
 * records one payment row per session in one transaction; Stripe is opened with claim, then
 * call, then record, one line item per session, the plan and session stored on the series.
 */
export const NOTHING_TO_PAY_MESSAGE =
  "Nothing in this series can be paid now: its sessions are paid, cancelled, or no longer held.";

/** As for one booking: Stripe's 30-minute minimum, and a minute to spare. */
const SESSION_MS = 31 * 60_000;

export function seriesLineDescription(booking: Booking): string {
  const hours = Number(booking.hoursNeeded);
  return `${sessionDate(booking)}, ${sessionTimeRange(booking)} (Atlanta time), ${hours} ${hours === 1 ? "hour" : "hours"}`;
}

/** Creates (or reuses) the series' hosted checkout and returns where the customer pays. */
export async function openSeriesCheckout(
  seriesId: number,
  appUrl: string,
  provider: HostedCheckoutProvider = hostedProvider(),
): Promise<{ url: string }> {
  for (let round = 0; round < 3; round++) {
    const now = Date.now();
    const series = getSeries(seriesId);
    if (!series) throw new CheckoutUnavailableError("This series does not exist.");
    if (payableSessions(listSeriesBookings(seriesId), now).length === 0) {
      throw new CheckoutUnavailableError(NOTHING_TO_PAY_MESSAGE);
    }
    let stale: string | null = null;
    if (series.checkoutSessionId && (series.checkoutExpiresAt ?? 0) > now) {
      const existing = await lookUpCheckout(provider, series.checkoutSessionId);
      if (existing.status === "open" && existing.url) return { url: existing.url };
      if (existing.status === "complete") {
        // Paid, but the webhook has not arrived: record it now rather than charge again.
        recordCheckoutSession(existing);
        return { url: successUrl(appUrl, existing.id) };
      }
      stale = existing.id;
    } else if (series.checkoutSessionId) {
      stale = series.checkoutSessionId;
    }
    const plan = writeTransaction((tx) => planSeriesCheckout(tx, seriesId, now, SESSION_MS, stale));
    if (plan.kind === "not-payable") {
      throw new CheckoutUnavailableError(plan.message ?? NOTHING_TO_PAY_MESSAGE);
    }
    if (plan.kind === "opened-elsewhere") continue;
    return { url: await createPlanned(provider, plan, appUrl) };
  }
  throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
}

async function createPlanned(
  provider: HostedCheckoutProvider,
  plan: Extract<SeriesCheckoutPlan, { kind: "create" }>,
  appUrl: string,
): Promise<string> {
  const { series, sessions, until } = plan;
  let session: CheckoutSession;
  try {
    session = await provider.createSeriesCheckout({
      seriesId: series.id,
      lines: sessions.map((booking) => ({
        bookingId: booking.id,
        amount: booking.totalCost,
        name: `Studio session #${booking.id}`,
        description: seriesLineDescription(booking),
      })),
      customerEmail: accountEmail(series.userId),
      successUrl: `${appUrl}/booking-success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${appUrl}/checkout/series/${series.id}`,
      expiresAt: until,
      // The same series and plan give the same key: a double submit gets the same session.
      idempotencyKey: `checkout-series-${series.id}-${until}`,
    });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    logError(`Stripe: could not open a Checkout Session for series ${series.id}`, error);
    writeTransaction((tx) => abandonSeriesCheckoutPlan(tx, series.id, until));
    throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
  }
  writeTransaction((tx) => storeSeriesCheckoutSession(tx, series.id, until, session.id));
  if (!session.url) throw new CheckoutUnavailableError(PAYMENT_SERVICE_UNAVAILABLE_MESSAGE);
  return session.url;
}

export type SeriesChargeResult =
  | { ok: true; transactionId: string; paid: Booking[] }
  | { ok: false; message: string };

/**
 * The sandbox's card form for a series: the card is decided once for the total of every
 * payable session, then every session is recorded in one transaction, or none (a session paid
 * or cancelled in another tab meanwhile refuses the whole payment, nothing charged).
 */
export function chargeSandboxSeries(
  seriesId: number,
  card: CardInput,
  now: number,
): SeriesChargeResult {
  const provider = paymentProvider();
  if (provider.checkout !== "card-form") throw new Error("The payment provider takes no cards");
  const sessions = payableSessions(listSeriesBookings(seriesId), now);
  if (sessions.length === 0) return { ok: false, message: NOTHING_TO_PAY_MESSAGE };
  const charge = provider.chargeCard(card);
  if (!charge.ok) return charge;
  const result = recordSeriesPayment(
    {
      seriesId,
      chargeId: charge.transactionId,
      sessions: sessions.map((booking) => ({ bookingId: booking.id, amount: booking.totalCost })),
      details: { brand: charge.brand, last4: charge.last4 },
    },
    now,
    { refuseClaimed: true, allOrNothing: true },
  );
  const first = result.paid[0];
  if (!first) return { ok: false, message: ALREADY_PAID_MESSAGE };
  return {
    ok: true,
    // The success page finds the payment by its row's reference.
    transactionId: seriesPaymentReference(charge.transactionId, first.id),
    paid: result.paid,
  };
}
