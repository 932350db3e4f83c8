import type { PublicUser } from "../../models/user.server";

/** My Sessions: upcoming and past sessions and the retainer balance. */
export function loadSessionsTab(_user: PublicUser, _now: number) {
  return {};
}
export type SessionsTabData = ReturnType<typeof loadSessionsTab>;
