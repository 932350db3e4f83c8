import { chatIdentity } from "#app/adapters.server";

/**
 * Who the chat widget is started for (docs/product.md "The studio and its visitors": the user id
 * and username), signed for Intercom's identity verification when the secret is set. Production
 * requires the secret whenever the chat is on (env.server.ts). The caller looks up the signed-in
 * user.
 */
export type ChatUser = { id: number; username: string; hash: string | null };

export function chatUser(user: { id: number; username: string } | null): ChatUser | null {
  const chat = chatIdentity();
  if (!user || !chat) return null;
  return { id: user.id, username: user.username, hash: chat.sign(user.id) };
}
