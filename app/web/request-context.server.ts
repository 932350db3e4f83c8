import { createContext } from "react-router";

/** The client's address as the server saw it (set in server/app.ts, used for rate limits). */
export const clientAddressContext = createContext<string>("unknown");

/** The per-response CSP nonce, made by the security middleware and used by entry.server. */
export const nonceContext = createContext<string>("");

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
