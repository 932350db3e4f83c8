import { createHmac } from "node:crypto";

/**
 * Intercom's identity verification: the hash proves to Intercom that this server vouches for
 * a user id, so nobody can open another customer's conversations by booting the widget with
 * their (sequential) id. Pure: the caller brings the id and the secret.
 */
export function chatIdentityHash(userId: number, secret: string): string {
  return createHmac("sha256", secret).update(String(userId)).digest("hex");
}
