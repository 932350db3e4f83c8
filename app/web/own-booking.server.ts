import { data, type RouterContextProvider } from "react-router";
import { parseId } from "#app/domain/ids";
import { expireHolds, getOwnBooking } from "#app/models/booking.server";
import { requireUser } from "#app/web/user-context.server";

/**
 * The signed-in customer and their booking `:id` (pages: checkout, Session Details, Pay
 * Now, the printable details). A visitor is sent to sign in; another customer's booking,
 * an admin's look at it and a malformed id all answer 404, as missing. With `expireHoldsAt`,
 * holds that ran out are released first (only once the caller is known), so an unpaid
 * booking whose slot was released reads as cancelled, as in the dashboard's list.
 */
export async function requireOwnBooking(
  request: Request,
  context: Readonly<RouterContextProvider>,
  idParam: string | undefined,
  options: { expireHoldsAt?: number } = {},
) {
  const user = await requireUser(request, context);
  if (options.expireHoldsAt !== undefined) expireHolds(options.expireHoldsAt);
  const id = parseId(idParam);
  const booking = id === null ? undefined : getOwnBooking(id, user.id);
  if (!booking) throw data("Not found", { status: 404 });
  return { user, booking };
}
