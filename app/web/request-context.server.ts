import { createContext } from "react-router";

/** The client's address as the server saw it (set in server/app.ts, used for rate limits). */
export const clientAddressContext = createContext<string>("unknown");

/**
 * Whether the request is a GET or HEAD. Only such a request makes a calendar link on its first
 * view (docs/product.md "Calendar feeds"): a refused form post re-renders its page in the same
 * request, and a refusal must write nothing.
 */
export const safeMethodContext = createContext<boolean>(false);

/** The CSP hashes of the rendered page's own inline scripts, from entry.server to the security middleware. */
export const scriptHashesContext = createContext<readonly string[]>([]);

/**
 * A toast for the page being rendered in this very request: a post from a browser without
 * JavaScript is answered by rendering the page, whose root loader runs after the action and
 * cannot see the cookie the action is setting. See `replyWithToast`.
 */
export const inlineToastContext = createContext<{
  message: string;
  description?: string;
  type: "success" | "error";
} | null>(null);
