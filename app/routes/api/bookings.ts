import { z } from "#app/domain/zod";
import { bookingApiPayloadSchema } from "#app/domain/booking-form";
import { sessionsAsked } from "#app/domain/series-form";
import { WAITLIST_MESSAGES } from "#app/domain/waitlist";
import { listOwnBookings } from "#app/models/booking.server";
import { bookingPaymentsOf } from "#app/models/receipt.server";
import { jsonError, readJson, describedMethodsOnly } from "#app/web/api.server";
import { takeBookingChange, tooManyBookingChangesMessage } from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { requireApiUser } from "#app/web/user-context.server";
import { bookSession } from "#app/workflows/book-session.server";
import { bookSeries } from "#app/workflows/book-series.server";
import { Refusal, SeriesConflictsRefusal, UnpaidHoldsRefusal } from "#app/domain/refusal";
import { jsonRefusal } from "#app/web/refusals.server";
import type { Route } from "./+types/bookings";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { toBookingJson, toBookingPaymentJson } from "#app/routes/api/json/booking";

/**
 * GET /api/bookings: the caller's own bookings, newest first (docs/product.md "The JSON API"),
 * each with `payments` (docs/product.md "Receipts"). An expired hold reads as released.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireApiUser(request, context);
  const now = Date.now();
  // Each with its payments and their receipts' URLs (docs/product.md "Receipts").
  const payments = bookingPaymentsOf(user.id);
  return Response.json(
    listOwnBookings(user.id, now).map((booking) => ({
      ...toBookingJson(booking),
      payments: (payments.get(booking.id) ?? []).map(toBookingPaymentJson),
    })),
  );
}

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = bookingApiPayloadSchema;

/**
 * POST /api/bookings with the create payload of docs/product.md "Data". The server prices the
 * booking: totalCost, originalCost, discountAmount, servicesCost and status in the body are ignored
 * (the schema drops them). A $0 booking is created CONFIRMED; any other waits for payment with its
 * slot held for HOLD_MINUTES. Sessions booked and rescheduled are limited per account and per
 * client address (BOOKING_RATE_LIMIT per hour, a series counting each of its sessions; 429 with
 * Retry-After when the request does not fit, nothing written).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireApiUser(request, context);
  const now = Date.now();
  const payload = await readJson(request, jsonBody(now));
  if (payload.userId !== undefined && payload.userId !== user.id) {
    return jsonError(403, "You can only book for your own account");
  }
  if (payload.repeat && payload.waitlistEntryId !== undefined) {
    return jsonError(400, WAITLIST_MESSAGES.claimSeries);
  }
  // Counted in sessions: a series takes one per session it books (docs/product.md "Booking").
  const retryAfter = await takeBookingChange(
    context.get(clientAddressContext),
    user.id,
    sessionsAsked(payload.repeat),
  );
  if (retryAfter !== null) {
    return jsonError(429, tooManyBookingChangesMessage(retryAfter), undefined, {
      "Retry-After": String(retryAfter),
    });
  }
  try {
    if (payload.repeat) {
      // A weekly series (docs/product.md "Weekly series"): all its sessions or none.
      const series = bookSeries(user, payload, payload.repeat, now);
      const checkoutUrl = `/checkout/series/${series.seriesId}`;
      return Response.json(
        {
          seriesId: series.seriesId,
          bookings: series.bookings.map((booking) => ({
            ...toBookingJson(booking),
            checkoutUrl: booking.status === "PENDING_PAYMENT" ? checkoutUrl : null,
          })),
        },
        { status: 201 },
      );
    }
    // A claim books the offer's own range, or is refused with our message (docs/product.md
    // "Waitlist").
    const claim =
      payload.waitlistEntryId === undefined
        ? undefined
        : { waitlistEntryId: payload.waitlistEntryId };
    const booking = bookSession(user, payload, now, undefined, claim);
    return Response.json(
      {
        ...toBookingJson(booking),
        checkoutUrl: booking.status === "PENDING_PAYMENT" ? `/checkout/${booking.id}` : null,
      },
      { status: 201 },
    );
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (error instanceof SeriesConflictsRefusal) {
      return jsonRefusal(error, { conflicts: error.conflicts });
    }
    if (error instanceof UnpaidHoldsRefusal) {
      return jsonRefusal(error, {
        openBookings: error.openHolds.map((hold) => ({
          id: hold.id,
          recordingDate: hold.recordingDate,
          recordingTime: hold.recordingTime,
          payUrl: hold.seriesId
            ? `/checkout/series/${hold.seriesId}`
            : `/dashboard/sessions/${hold.id}/pay`,
          cancelUrl: `/dashboard/sessions/${hold.id}/cancel`,
        })),
      });
    }
    return jsonRefusal(error);
  }
}

export const openapi: doc.ApiPaths = {
  "/api/bookings": {
    get: {
      summary: "The caller's own bookings, newest first",
      responses: {
        200: doc.answers(
          "The bookings, each with its payments and refunds (`receiptUrl`: its PDF)",
          z.array(shape.ownBookingJson),
        ),
        401: doc.notSignedIn,
      },
    },
    post: {
      summary:
        "Books a session, or a weekly series with `repeat` (all its sessions or none); the server prices it. `waitlistEntryId` claims the caller's live waitlist offer for that range (a single session only)",
      ...doc.body(jsonBody(Date.now())),
      responses: {
        201: doc.answers(
          "The new booking; `checkoutUrl` when it waits for payment. With `repeat`: the series' id and its bookings in date order, each with the series' `checkoutUrl` when it waits for payment",
          z.union([
            shape.createdBookingJson,
            z.strictObject({
              seriesId: z.number().int(),
              bookings: z.array(shape.createdBookingJson),
            }),
          ]),
        ),
        ...doc.BODY_REFUSALS,
        400: doc.refused(
          "A refused field or slot, a waitlist offer that is not the caller's live one for that range, or `waitlistEntryId` with `repeat`",
          { errors: doc.fieldErrors.optional() },
        ),
        401: doc.notSignedIn,
        403: doc.refused("A userId other than the caller's"),
        422: doc.refused(
          "Too many unpaid bookings or unpaid sessions (`openBookings`), the slot was just taken, or sessions of a series are taken (`conflicts`: each date with up to 3 nearest free start times)",
          {
            title: z.string().optional(),
            openBookings: z
              .array(
                z.strictObject({
                  id: z.number().int(),
                  recordingDate: z.string(),
                  recordingTime: z.string(),
                  payUrl: z.string(),
                  cancelUrl: z.string(),
                }),
              )
              .optional(),
            conflicts: z
              .array(
                z.strictObject({
                  recordingDate: z.string(),
                  alternatives: z.array(z.string()),
                }),
              )
              .optional(),
          },
        ),
        429: doc.tooMany("Too many bookings and moves this hour"),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
