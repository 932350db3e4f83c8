import { createContext, useContext } from "react";

/** The mark of this render's own scripts, hashed for the CSP (app/web/inline-scripts.server.ts); empty in the browser. */
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
