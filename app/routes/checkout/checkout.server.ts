import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider, redirect } from "react-router";
import { holdDeadline, sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import { STATUS_LABELS } from "#app/domain/booking-status";
import { type CardInput, cardFormSchema, studioMonth } from "#app/domain/card";
import { type QuoteLine, quoteLines, quoteTotal } from "#app/domain/pricing";
import { type getBooking, getBookingServices } from "#app/models/booking.server";
import { listOrderSessions, payableSessions } from "#app/models/order.server";
import { env } from "#app/env.server";
import { readForm } from "#app/web/form.server";
import { logError } from "#app/log.server";
import { replyWithToast } from "#app/web/toast.server";
import { isPayable, notPayableMessage } from "#app/domain/payments";
import {
  CheckoutUnavailableError,
  chargeSandboxCard,
  openHostedCheckout,
  PAYMENT_SERVICE_UNAVAILABLE_MESSAGE,
} from "#app/workflows/checkout.server";
import { paymentProvider } from "#app/adapters.server";
import { db } from "#app/db.server";

/** A booking row, as the booking model reads it (routes do not import the schema). */
type Booking = NonNullable<ReturnType<typeof getBooking>>;

/** Callers have checked the booking is the customer's own. */
/**
 * The booking's quote as its lines (docs/product.md "Complete Your Payment"), from what was
 * stored when it was booked: the rate, the hours drawn from a retainer, each add-on's price then,
 * the discount. They add up to the stored total; a booking whose do not is logged for staff.
 */
export function checkoutLines(booking: Booking): QuoteLine[] {
  const lines = quoteLines({
    hours: Number(booking.hoursNeeded),
    hourlyRate: booking.hourlyRate,
    buysRetainer: booking.isRetainer,
    retainerHoursDrawn: booking.retainerHoursDrawn,
    services: getBookingServices(db, booking.id).map((service) => ({
      id: service.serviceId,
      name: service.name,
      price: service.priceAtBooking,
    })),
    discountAmount: booking.discountAmount,
    couponCode: booking.couponCode,
  });
  const sum = quoteTotal(lines);
  if (sum !== booking.totalCost) {
    logError(
      `Checkout of booking ${booking.id}`,
      new Error(`its lines add up to ${sum} but its total is ${booking.totalCost}`),
    );
  }
  return lines;
}

export function loadCheckout(booking: Booking, now: number) {
  const payable = isPayable(booking, now);
  return {
    booking: {
      id: booking.id,
      status: booking.status,
      statusLabel: STATUS_LABELS[booking.status],
      date: sessionDate(booking),
      time: sessionTimeRange(booking),
      hours: booking.hoursNeeded,
      guests: booking.guestCount,
      isRetainer: booking.isRetainer,
      originalCost: booking.originalCost,
      discountAmount: booking.discountAmount,
      couponCode: booking.couponCode,
      totalCost: booking.totalCost,
      lines: checkoutLines(booking),
    },
    payable,
    problem: payable ? null : notPayableMessage(booking, now),
    heldUntil: booking.holdExpiresAt ? holdDeadline(booking.holdExpiresAt) : null,
    provider: paymentProvider().checkout,
    testCards: paymentProvider().name === "sandbox",
  };
}
export type CheckoutData = ReturnType<typeof loadCheckout>;

const HIDDEN_FIELDS = ["cardNumber", "cvv"];

/** What is being paid: an order's payable sessions, named from the page that pays them. */
export type CheckoutTarget = {
  orderId: number;
  /** The page the customer pays on; Stripe's back link returns there. */
  path: string;
  /** Why nothing can be paid now, in the page's words. */
  notPayable: (sessions: readonly Booking[], now: number) => string;
};

export function bookingTarget(booking: Booking): CheckoutTarget {
  return {
    orderId: orderOf(booking),
    path: `/checkout/${booking.id}`,
    notPayable: notPayableNow(booking),
  };
}

/** Every failure re-renders the form with the reason, never keeping the card number or CVV. */
export async function checkoutAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  target: CheckoutTarget,
  onPaid: (transactionId: string) => Response | Promise<Response>,
) {
  const now = Date.now();
  const provider = paymentProvider();
  const formData = await readForm(request);

  const sessions = listOrderSessions(db, target.orderId);
  if (payableSessions(sessions, now).length === 0) {
    const message = target.notPayable(sessions, now);
    return replyWithToast(
      context,
      formData,
      {
        result: parseWithZod(formData, { schema: cardFormSchema(studioMonth(now)) }).reply({
          formErrors: [message],
          hideFields: HIDDEN_FIELDS,
        }),
      },
      { type: "error", message: "Payment Failed", description: message },
      { status: 409 },
    );
  }

  if (provider.checkout === "hosted") {
    return openHostedReply(context, formData, () =>
      openHostedCheckout(target.orderId, env.APP_URL, target.path, undefined, target.notPayable),
    );
  }

  const submission = parseWithZod(formData, { schema: cardFormSchema(studioMonth(now)) });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: HIDDEN_FIELDS }) }, { status: 400 });
  }
  const charge = chargeSandboxCard(
    target.orderId,
    submission.value as CardInput,
    now,
    target.notPayable,
  );
  if (!charge.ok) {
    return replyWithToast(
      context,
      formData,
      { result: submission.reply({ formErrors: [charge.message], hideFields: HIDDEN_FIELDS }) },
      { type: "error", message: "Payment Failed", description: charge.message },
      { status: 402 },
    );
  }
  return onPaid(charge.transactionId);
}

/** The order a booking was bought in: every row the app writes has one. */
function orderOf(booking: Booking): number {
  if (booking.orderId === null) throw new Error(`Booking ${booking.id} has no order`);
  return booking.orderId;
}

/** Why one booking cannot be paid now, in its own words (paid, cancelled, hold run out). */
function notPayableNow(booking: Booking) {
  return (sessions: readonly Booking[], now: number) =>
    notPayableMessage(sessions.find((session) => session.id === booking.id) ?? booking, now);
}

async function openHostedReply(
  context: Readonly<RouterContextProvider>,
  formData: FormData,
  open: () => Promise<{ url: string }>,
) {
  try {
    const { url } = await open();
    return redirect(url);
  } catch (error) {
    if (!(error instanceof CheckoutUnavailableError)) logError("checkout", error);
    const message =
      error instanceof CheckoutUnavailableError
        ? error.message
        : PAYMENT_SERVICE_UNAVAILABLE_MESSAGE;
    return replyWithToast(
      context,
      formData,
      { result: null },
      { type: "error", message: "Payment Failed", description: message },
      { status: 502 },
    );
  }
}
