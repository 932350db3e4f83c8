import { data, type RouterContextProvider } from "react-router";
import type { PublicUser } from "../../models/user.server";

/** Profile Settings: the profile form and the password change. */
export const PROFILE_INTENTS = ["profile"] as const;

export function loadProfileTab(_user: PublicUser) {
  return {};
}
export type ProfileTabData = ReturnType<typeof loadProfileTab>;

export async function profileAction(
  _request: Request,
  _context: Readonly<RouterContextProvider>,
  _user: PublicUser,
  _formData: FormData,
) {
  throw data("Not available yet", { status: 400 });
}
