import { useEffect } from "react";
import { syncMessenger } from "#app/components/chat/messenger";

/**
 * Who the widget is started for: the user id and username, and the server's identity hash
 * for them (workflows/chat-identity.server.ts builds it; null when no secret is set).
 */
export type ChatUser = { id: number; username: string; hash: string | null };

/**
 * Starts the chat widget when a chat app id is configured, once the browser is idle after
 * hydration (it never competes with the page's own first load), and follows sign-in and
 * sign-out. Renders nothing: the widget draws its own launcher.
 */
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
