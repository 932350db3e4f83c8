import type { Refusal, RefusalKind } from "#app/domain/refusal";
import { jsonError } from "#app/web/api.server";

type Answer = {
  /** The status of the API's answer and of the form's page (docs/product.md "The JSON API"). */
  status: number;
  /** The form's toast title; the API names it too where `titled` (docs/product.md "Booking"). */
  title: string;
  titled?: true;
  /** The form field the message belongs to; without one it is the form's own error. */
  field?: string;
};

const WAITLIST_REFUSED = "Not added to the waitlist";

/** The one answer to each refusal, for the form and the API alike. */
export const REFUSAL_ANSWERS: Record<RefusalKind, Answer> = {
  "not-found": { status: 404, title: "Not Found" },
  "username-taken": { status: 400, title: "Registration failed", field: "username" },
  "wrong-password": { status: 400, title: "Error", field: "currentPassword" },
  "start-refused": { status: 400, title: "Time Slot Unavailable" },
  "slot-taken": { status: 422, title: "Time Slot Unavailable", titled: true },
  horizon: { status: 400, title: "Date Too Far Ahead" },
  "coupon-refused": { status: 400, title: "Invalid Coupon" },
  "service-gone": { status: 400, title: "Booking Failed" },
  // 422, not 429: waiting does not help; paying for or cancelling an open booking does.
  "unpaid-holds": { status: 422, title: "Unpaid Bookings", titled: true },
  "claim-refused": { status: 400, title: "Booking Failed" },
  "series-refused": { status: 400, title: "Dates Unavailable" },
  "series-conflicts": { status: 422, title: "Dates Unavailable" },
  "range-free": { status: 422, title: WAITLIST_REFUSED },
  "already-waiting": { status: 422, title: WAITLIST_REFUSED },
  "waitlist-full": { status: 422, title: WAITLIST_REFUSED },
  "own-booking": { status: 422, title: WAITLIST_REFUSED },
  "not-own-booking": { status: 400, title: "Request not sent", field: "bookingId" },
  "support-move-refused": { status: 422, title: "Error updating request" },
  "resolution-required": { status: 400, title: "Error updating request", field: "resolution" },
  "status-change-refused": { status: 422, title: "Error updating booking" },
  "file-name-refused": { status: 400, title: "File not renamed", field: "name" },
  "file-gone": { status: 400, title: "File not found" },
  "nothing-to-deliver": { status: 400, title: "Files not delivered" },
  // The one 409 (docs/product.md "The JSON API").
  "duplicate-coupon": { status: 409, title: "Duplicate Coupon Code", field: "code" },
  "not-cancellable": { status: 422, title: "Cancellation Failed" },
  "refund-changed": { status: 422, title: "Cancellation Failed" },
  "not-reschedulable": { status: 422, title: "Time Slot Unavailable" },
  "new-slot-refused": { status: 422, title: "Time Slot Unavailable", field: "recordingTime" },
};

/** The API's answer: the refusal's status and `{ message }`, plus what the route adds. */
export function jsonRefusal(refusal: Refusal, extra?: Record<string, unknown>): Response {
  const { status, title, titled } = REFUSAL_ANSWERS[refusal.kind];
  return jsonError(status, refusal.message, { ...(titled ? { title } : {}), ...extra });
}

/**
 * The form's answer: the toast (the kind's title unless the form names its own, our message),
 * the page's status and the field the message belongs to.
 */
export function formRefusal(refusal: Refusal, title?: string) {
  const answer = REFUSAL_ANSWERS[refusal.kind];
  return {
    toast: {
      type: "error" as const,
      message: title ?? answer.title,
      description: refusal.message,
    },
    init: { status: answer.status },
    field: answer.field,
  };
}
