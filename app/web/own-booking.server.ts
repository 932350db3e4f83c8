import { data, type RouterContextProvider } from "react-router";
import { asSweptAt } from "#app/domain/holds";
import { parseId } from "#app/domain/ids";
import { getOwnBooking } from "#app/models/booking.server";
import { requireUser } from "#app/web/user-context.server";

/**
 * The signed-in customer and their booking `:id` (pages: checkout, Session Details, Pay
 * Now, the printable details). A visitor is sent to sign in; another customer's booking,
 * an admin's look at it and a malformed id all answer 404, as missing. A page's loader passes
 * `seenAt`: an expired hold then reads as the sweep leaves it, as in the dashboard's list; an
 * action acts on the row as it is.
 */
export async function requireOwnBooking(
  request: Request,
  context: Readonly<RouterContextProvider>,
  idParam: string | undefined,
  options: { seenAt?: number } = {},
) {
  const user = await requireUser(request, context);
  const id = parseId(idParam);
  const booking = id === null ? undefined : getOwnBooking(id, user.id);
  if (!booking) throw data("Not found", { status: 404 });
  const { seenAt } = options;
  return { user, booking: seenAt === undefined ? booking : asSweptAt(booking, seenAt) };
}
