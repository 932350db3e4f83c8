import { createHmac } from "node:crypto";
import type { PublicUser } from "#app/models/user.server";
import { env } from "#app/env.server";

/**
 * Who the chat widget is started for (spec section 1: the user id and username), with
 * Intercom's identity verification: the hash proves to Intercom that this server vouches for
 * the id, so nobody can open another customer's conversations by booting the widget with
 * their (sequential) id. Production requires the secret whenever the chat is on.
 */
export type ChatUser = { id: number; username: string; hash: string | null };

export function chatUser(user: PublicUser | null): ChatUser | null {
  if (!user || !env.INTERCOM_APP_ID) return null;
  const secret = env.INTERCOM_IDENTITY_SECRET;
  return {
    id: user.id,
    username: user.username,
    hash: secret ? createHmac("sha256", secret).update(String(user.id)).digest("hex") : null,
  };
}
