import { getToast, setToastCookieOptions } from "remix-toast";
import { env } from "./env.server";

// The toast flash cookie is signed with our secret, not the library's default.
setToastCookieOptions({
  secrets: [env.SESSION_SECRET],
  secure: env.NODE_ENV === "production",
  httpOnly: true,
  sameSite: "lax",
  path: "/",
});

/**
 * The flashed toast, if any. remix-toast commits its cookie on every read, so visitors who
 * have no toast cookie are not handed one (which would also make every page uncacheable).
 */
export async function readToast(request: Request) {
  if (!request.headers.get("Cookie")?.includes("toast-session=")) {
    return { toast: null, headers: new Headers() };
  }
  const { toast, headers } = await getToast(request);
  return { toast: toast ?? null, headers };
}

export {
  dataWithError,
  dataWithSuccess,
  redirectWithError,
  redirectWithSuccess,
} from "remix-toast";
