import { data, type RouterContextProvider } from "react-router";
import type { PublicUser } from "../../models/user.server";

/** Help & Support: the 'Get help' form and the customer's own requests. */
export const SUPPORT_INTENTS = ["support"] as const;

export function loadSupportTab(_user: PublicUser) {
  return {};
}
export type SupportTabData = ReturnType<typeof loadSupportTab>;

export async function supportAction(
  _request: Request,
  _context: Readonly<RouterContextProvider>,
  _user: PublicUser,
  _formData: FormData,
) {
  throw data("Not available yet", { status: 400 });
}
