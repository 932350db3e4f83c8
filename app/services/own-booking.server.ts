import { data } from "react-router";
import { parseId } from "../domain/ids";
import { getOwnBooking } from "../models/booking.server";
import { requireUser } from "./auth.server";

/**
 * The signed-in customer and their booking named by a route's `:id`, for pages about one
 * booking. A visitor is sent to sign in; another customer's booking is as missing as one that
 * does not exist (404), so ids cannot be probed.
 */
export async function requireOwnBooking(request: Request, idParam: string | undefined) {
  const user = await requireUser(request);
  const id = parseId(idParam);
  const booking = id === null ? undefined : getOwnBooking(id, user.id);
  if (!booking) throw data("Not found", { status: 404 });
  return { user, booking };
}
