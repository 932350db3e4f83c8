import { createContext } from "react-router";

/** The client's address as the server saw it (set in server/app.ts, used for rate limits). */
export const clientAddressContext = createContext<string>("unknown");

/** The per-response CSP nonce, made by the security middleware and used by entry.server. */
export const nonceContext = createContext<string>("");
