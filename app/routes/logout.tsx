import { redirect } from "react-router";
import { destroySignIn } from "#app/web/sign-in.server";
import { redirectWithSuccess } from "#app/web/toast.server";
import type { Route } from "./+types/logout";

/** Logging out is a POST (a link could be triggered by a prefetch or a third-party page). */
export function loader() {
  throw redirect("/");
}

export async function action({ request }: Route.ActionArgs) {
  const cookie = await destroySignIn(request);
  return redirectWithSuccess("/", "Logged out successfully", { headers: { "Set-Cookie": cookie } });
}
