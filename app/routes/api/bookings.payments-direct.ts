import { CARD_MESSAGES, cardFormSchema } from "#app/domain/card";
import { parseId } from "#app/domain/ids";
import { studioDateOf } from "#app/domain/studio-time";
import { z } from "#app/domain/zod";
import { getOwnBooking } from "#app/models/booking.server";
import { toBookingJson } from "#app/routes/api/json/booking";
import { jsonError, readJson, describedMethodsOnly } from "#app/web/api.server";
import { requireApiUser } from "#app/web/user-context.server";
import { paymentProvider } from "#app/adapters.server";
import { isPayable, notPayableMessage } from "#app/domain/payments";
import { chargeSandboxCard } from "#app/workflows/checkout.server";
import type { Route } from "./+types/bookings.payments-direct";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";

const NOT_FOUND = "Booking not found";
const AMOUNT_MISMATCH = "The amount does not match the booking total";
const CARD_ONLY = "Only card payments are available";

/** The amount the client believes it pays (the booking's totalCost), as a number or text. */
const amountField = z.preprocess(
  (value) =>
    typeof value === "string" && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value,
  z.number({ error: AMOUNT_MISMATCH }).nonnegative(AMOUNT_MISMATCH),
);

/**
 * The body of docs/product.md "The JSON API": paymentMethod, cardName, cardNumber, expirationDate,
 * cvv, amount and a paymentDetails copy of the card fields. The copy is not read (the schema drops
 * it), so the card number and CVV exist in exactly one place, and go no further than the sandbox
 * charge.
 */
function paymentBodySchema(now: number) {
  const [year, month] = studioDateOf(now).split("-").map(Number);
  return cardFormSchema({ year: year ?? 0, month: month ?? 0 }).extend({
    amount: amountField.optional(),
  });
}

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = paymentBodySchema;

/**
 * POST /api/bookings/{id}/payments/direct: pays the caller's own unpaid booking by card with
 * the sandbox provider (docs/product.md "Payment"). The server charges the booking's own
 * total; an `amount` that differs is refused before anything is charged. Answers 200 with
 * { success, transactionId, booking }, 402 for a declined or invalid card, 422 when the booking
 * cannot be paid any more (already paid, hold run out, cancelled, free).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireApiUser(request, context);
  const id = parseId(params.id);
  const booking = id === null ? undefined : getOwnBooking(id, user.id);
  if (!booking) return jsonError(404, NOT_FOUND);
  if (paymentProvider().name === "stripe") {
    return jsonError(400, "Card payments go through Stripe Checkout", {
      checkoutUrl: `/checkout/${booking.id}`,
    });
  }

  const now = Date.now();
  const card = await readJson(request, jsonBody(now));
  if (card.paymentMethod !== "card") return jsonError(400, CARD_ONLY);
  if (card.amount !== undefined && card.amount !== booking.totalCost) {
    return jsonError(400, AMOUNT_MISMATCH);
  }
  if (!isPayable(booking, now)) return jsonError(422, notPayableMessage(booking, now));

  if (booking.orderId === null) return jsonError(422, notPayableMessage(booking, now));
  // The booking is paid with its order: a session of a series with every unpaid one of it.
  const result = chargeSandboxCard(booking.orderId, card, now, (sessions) =>
    notPayableMessage(sessions.find((session) => session.id === booking.id) ?? booking, now),
  );
  if (result.ok) {
    const paid = result.paid.find((session) => session.id === booking.id) ?? booking;
    return Response.json({
      success: true,
      transactionId: result.transactionId,
      booking: toBookingJson(paid),
    });
  }
  const cardRefused =
    result.message === CARD_MESSAGES.declined || result.message === CARD_MESSAGES.invalidNumber;
  return jsonError(cardRefused ? 402 : 422, result.message);
}

export const openapi: doc.ApiPaths = {
  "/api/bookings/{id}/payments/direct": {
    post: {
      summary: "Pays the caller's unpaid booking by card (sandbox payments only)",
      ...doc.idAndBody(jsonBody(Date.now())),
      responses: {
        200: doc.answers(
          "Paid",
          z.strictObject({
            success: z.literal(true),
            transactionId: z.string(),
            booking: shape.bookingJson,
          }),
        ),
        ...doc.BODY_REFUSALS,
        400: doc.refused(
          "A refused field, an amount that is not the total, or Stripe's Checkout is the way to pay (`checkoutUrl`)",
          { errors: doc.fieldErrors.optional(), checkoutUrl: z.string().optional() },
        ),
        401: doc.notSignedIn,
        402: doc.refused("The card was declined or its number is invalid"),
        404: doc.refused(NOT_FOUND),
        422: doc.refused(
          "The booking cannot be paid any more (already paid, hold run out, cancelled, free)",
        ),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
