import { data, type RouterContextProvider } from "react-router";
import { dataWithError, dataWithSuccess, getToast, setToastCookieOptions } from "remix-toast";
import { env } from "#app/env.server";
import { inlineToastContext } from "#app/web/request-context.server";

// The toast flash cookie is signed with our secret, not the library's default.
setToastCookieOptions({
  secrets: [env.SESSION_SECRET],
  secure: env.NODE_ENV === "production",
  httpOnly: true,
  sameSite: "lax",
  path: "/",
});

/** Forms that may be posted without JavaScript carry this field once the page is hydrated. */
export const HYDRATED_FIELD = "_hydrated";

type Toast = { message: string; description?: string };

/**
 * An action's answer that re-renders the form with a toast. A hydrated page shows it after
 * revalidating (remix-toast's cookie); a page without JavaScript is rendered by this same
 * request, so the toast goes to the root loader through the request context instead.
 */
export function replyWithToast<T>(
  context: Readonly<RouterContextProvider>,
  formData: FormData,
  payload: T,
  toast: Toast & { type: "success" | "error" },
  init?: ResponseInit,
) {
  const { type, ...message } = toast;
  if (formData.get(HYDRATED_FIELD) === "1") {
    return type === "error"
      ? dataWithError(payload, message, init)
      : dataWithSuccess(payload, message, init);
  }
  context.set(inlineToastContext, toast);
  return data(payload, init);
}

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
