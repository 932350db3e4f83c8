import { useEffect } from "react";
import { syncMessenger } from "#app/components/chat/messenger";

/** `hash` is the server's identity hash, null when no secret is set. */
export type ChatUser = { id: number; username: string; hash: string | null };

/** Once the browser is idle after hydration: it never competes with the page's first load. */
export function ChatWidget({ appId, user }: { appId: string | null; user: ChatUser | null }) {
  const userId = user?.id;
  const username = user?.username;
  const hash = user?.hash ?? null;
  useEffect(() => {
    if (!appId) return;
    const person =
      userId === undefined || username === undefined ? null : { id: userId, username, hash };
    const run = () => void syncMessenger(appId, person);
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(run, { timeout: 3000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(run, 1);
    return () => window.clearTimeout(timer);
  }, [appId, userId, username, hash]);
  return null;
}
