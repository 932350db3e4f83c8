import { data, type RouterContextProvider } from "react-router";
import { shortSessionDate } from "#app/domain/session-list";
import { CANCEL_SCOPES, type CancelScope } from "#app/domain/series-sessions";
import { formatDollars } from "#app/domain/pricing";
import { env } from "#app/env.server";
import type { getBooking } from "#app/models/booking.server";
import { replyWithToast, redirectWithSuccess } from "#app/web/toast.server";
import { cancelOwnFollowing, planCancelFollowing } from "#app/workflows/cancel-booking.server";
import { Refusal } from "#app/domain/refusal";
import { formRefusal } from "#app/web/refusals.server";
import { PaymentServiceError } from "#app/workflows/payment-provider.server";

type Booking = NonNullable<ReturnType<typeof getBooking>>;

/**
 * The cancel dialog's choice for a session of a weekly series (docs/product.md "Weekly
 * series"): this session only, or this and all later ones, each with its refund. Null for a
 * session booked alone, or the last one of its series (nothing later to choose).
 */
export function seriesCancelChoice(booking: Booking, now: number) {
  if (booking.orderId === null) return null;
  const planned = planCancelFollowing(booking, now, env.CANCELLATION_FEE_PERCENT);
  if ("problem" in planned || planned.plan.sessions.length < 2) return null;
  return {
    count: planned.plan.sessions.length,
    refund: planned.plan.refund,
    dates: planned.plan.sessions.map(({ booking: session }) => shortSessionDate(session)),
  };
}

/** The refund the dialog showed (a whole number of dollars), or null when it is not one. */
export function refundShown(formData: FormData, field: string): number | null {
  const shown = formData.get(field);
  return typeof shown === "string" && /^\d{1,9}$/.test(shown) ? Number(shown) : null;
}

/** A refused cancellation: the dialog again with our message, and the same toast. */
export function cancelFailure(context: Readonly<RouterContextProvider>, formData: FormData) {
  return (message: string, status: number) =>
    replyWithToast(
      context,
      formData,
      { message },
      { type: "error", message: "Cancellation Failed", description: message },
      { status },
    );
}

/** A cancellation the rules refused, answered as the refusal map says; a booking gone is a 404. */
export function cancelRefused(
  context: Readonly<RouterContextProvider>,
  formData: FormData,
  refusal: Refusal,
) {
  if (refusal.kind === "not-found") throw data("Not found", { status: 404 });
  const { toast, init } = formRefusal(refusal);
  return replyWithToast(context, formData, { message: refusal.message }, toast, init);
}

/** The scope posted: "one" unless told; anything else but "following" is refused. */
export function cancelScopeOf(formData: FormData): CancelScope | null {
  const raw = formData.get("scope");
  if (raw === null || raw === "") return "one";
  return CANCEL_SCOPES.find((scope) => scope === raw) ?? null;
}

export const SCOPE_MESSAGE = "Please choose which sessions to cancel.";

/** "This and all later", from the dialog's form: the total refund shown must still hold. */
export async function cancelFollowingFromForm(
  context: Readonly<RouterContextProvider>,
  formData: FormData,
  booking: Booking,
  userId: number,
  back: string,
) {
  const expectedRefund = refundShown(formData, "expectedFollowingRefund");
  const fail = cancelFailure(context, formData);
  if (expectedRefund === null) return fail("Please review the refund and confirm again.", 400);
  try {
    const { cancelled, stopped } = await cancelOwnFollowing(
      { bookingId: booking.id, userId, expectedRefund },
      Date.now(),
    );
    const refund = cancelled.reduce((sum, { quote }) => sum + quote.refund, 0);
    const what = `${cancelled.length} ${cancelled.length === 1 ? "session is" : "sessions are"} cancelled.`;
    if (stopped) {
      return fail(
        `${what} Booking #${stopped.bookingId} and the ones after it could not be cancelled right now: please try again.`,
        502,
      );
    }
    return redirectWithSuccess(back, {
      message: "Sessions cancelled",
      description: `${what} ${refund > 0 ? `${formatDollars(refund)} is refunded to your card.` : "Nothing was charged."}`,
    });
  } catch (error) {
    if (error instanceof Refusal) return cancelRefused(context, formData, error);
    if (error instanceof PaymentServiceError) return fail(error.message, 502);
    throw error;
  }
}
