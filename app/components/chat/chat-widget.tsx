import { useEffect } from "react";

/** `hash` is the server's identity hash, null when no secret is set. */
export type ChatUser = { id: number; username: string; hash: string | null };

/** When the browser is idle after hydration, and a site without a chat loads none of its code. */
export function ChatWidget({ appId, user }: { appId: string | null; user: ChatUser | null }) {
  const userId = user?.id;
  const username = user?.username;
  const hash = user?.hash ?? null;
  useEffect(() => {
    if (!appId) return;
    const person =
      userId === undefined || username === undefined ? null : { id: userId, username, hash };
    const run = () =>
      void import("#app/components/chat/messenger").then(({ syncMessenger }) =>
        syncMessenger(appId, person),
      );
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(run, { timeout: 3000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(run, 1);
    return () => window.clearTimeout(timer);
  }, [appId, userId, username, hash]);
  return null;
}
