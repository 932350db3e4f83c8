import { useEffect } from "react";
import { syncMessenger } from "#app/components/chat/messenger";

/**
 * Starts the chat widget when a chat app id is configured, once the browser is idle after
 * hydration (it never competes with the page's own first load), and follows sign-in and
 * sign-out. Renders nothing: the widget draws its own launcher.
 */
/** The signed-in user the server vouches for (the hash is Intercom's identity check). */
export type ChatUser = { id: number; username: string; hash: string | null };

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
