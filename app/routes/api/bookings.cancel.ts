import { parseId } from "#app/domain/ids";
import { z } from "#app/domain/zod";
import { getOwnBooking } from "#app/models/booking.server";
import { cancellationQuote, cancelProblem } from "#app/models/cancellation.server";
import { cancelOwnBooking } from "#app/workflows/cancel-booking.server";
import { RefundChangedRefusal, Refusal } from "#app/domain/refusal";
import { jsonRefusal } from "#app/web/refusals.server";
import { jsonError, readJson, describedMethodsOnly } from "#app/web/api.server";
import { requireApiUser } from "#app/web/user-context.server";
import { env } from "#app/env.server";
import { PaymentServiceError } from "#app/workflows/payment-provider.server";
import type { Route } from "./+types/bookings.cancel";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { CANCEL_SCOPES } from "#app/domain/series-sessions";
import { cancelFollowingJson, followingQuoteJson } from "#app/routes/api/series-cancel.server";
import { toBookingJson } from "#app/routes/api/json/booking";
import { db } from "#app/db.server";

const NOT_FOUND = "Booking not found";

/** The `?scope=`: "one" (the default) or "following". */
const cancelScopeQuery = z.object({ scope: z.enum(CANCEL_SCOPES).optional() });
const SCOPE_QUERY_MESSAGE = 'scope must be "one" or "following"';

const cancelBodySchema = z.object({
  /** The refund the customer was shown; when given, a different one is refused (422). */
  expectedRefund: z
    .number({ error: "expectedRefund must be a whole number of dollars" })
    .int("expectedRefund must be a whole number of dollars")
    .min(0, "expectedRefund must be a whole number of dollars")
    .nullish(),
  /**
   * "one" (the default) or "following": this session and every later one of its weekly
   * series (docs/product.md "Weekly series"); `expectedRefund` is then their total.
   */
  scope: z.enum(CANCEL_SCOPES, { error: 'scope must be "one" or "following"' }).nullish(),
});

/**
 * GET /api/bookings/{id}/cancel: whether the caller may cancel their booking now and the
 * exact refund (docs/product.md "Cancel, refund, reschedule"). Another customer's booking
 * is reported as missing.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireApiUser(request, context);
  const id = parseId(params.id);
  const booking = id === null ? undefined : getOwnBooking(id, user.id);
  if (!booking) return jsonError(404, NOT_FOUND);
  const now = Date.now();
  const scope = new URL(request.url).searchParams.get("scope");
  if (scope === "following") return followingQuoteJson(booking, now);
  if (scope !== null && scope !== "one") return jsonError(400, SCOPE_QUERY_MESSAGE);
  const problem = cancelProblem(db, booking, now);
  return Response.json({
    bookingId: booking.id,
    cancellable: problem === null,
    message: problem,
    refund: problem ? null : cancellationQuote(db, booking, now, env.CANCELLATION_FEE_PERCENT),
  });
}

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = cancelBodySchema;

/** POST /api/bookings/{id}/cancel with { expectedRefund? }: cancels and refunds. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireApiUser(request, context);
  const id = parseId(params.id);
  if (id === null) return jsonError(404, NOT_FOUND);
  const { expectedRefund, scope } = await readJson(request, jsonBody);
  if (scope === "following") return cancelFollowingJson(id, user.id, expectedRefund ?? null);
  try {
    const { booking, quote } = await cancelOwnBooking(
      { bookingId: id, userId: user.id, expectedRefund },
      Date.now(),
    );
    return Response.json({ booking: toBookingJson(booking), refund: quote });
  } catch (error) {
    if (error instanceof RefundChangedRefusal) return jsonRefusal(error, { refund: error.quote });
    if (error instanceof Refusal) return jsonRefusal(error);
    if (error instanceof PaymentServiceError) return jsonError(502, error.message);
    throw error;
  }
}

export const openapi: doc.ApiPaths = {
  "/api/bookings/{id}/cancel": {
    get: {
      summary:
        "Whether the caller may cancel their booking now, and the exact refund; with `?scope=following`, of this session and every later one of its weekly series",
      requestParams: { path: doc.idPath, query: cancelScopeQuery },
      responses: {
        200: doc.answers(
          "The cancellation quote (with `?scope=following`: each session's refund and the total)",
          z.union([shape.cancelQuoteJson, shape.followingQuoteShape]),
        ),
        400: doc.refused(SCOPE_QUERY_MESSAGE),
        401: doc.notSignedIn,
        404: doc.refused(NOT_FOUND),
      },
    },
    post: {
      summary:
        'Cancels the caller\'s booking and refunds what the quote says; with `"scope": "following"`, also every later session of its series (one e-mail)',
      ...doc.idAndBody(jsonBody),
      responses: {
        200: doc.answers(
          'The cancelled booking and its refund; with `"scope": "following"`, every session cancelled and the total refund',
          z.union([shape.cancelledJson, shape.cancelledFollowingJson]),
        ),
        ...doc.BODY_REFUSALS,
        401: doc.notSignedIn,
        404: doc.refused(NOT_FOUND),
        422: doc.refused("Cannot be cancelled now, or the refund differs from `expectedRefund`", {
          refund: shape.refundQuoteJson.optional(),
        }),
        502: doc.refused(
          'The refund could not be made (with `"scope": "following"`: the sessions cancelled before it stopped, in `cancelled`)',
          { cancelled: z.array(z.object({ id: z.number().int() })).optional() },
        ),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
