import { createHmac } from "node:crypto";

/** Nobody can open another's conversations by booting the widget with their (sequential) id. */
export function chatIdentityHash(userId: number, secret: string): string {
  return createHmac("sha256", secret).update(String(userId)).digest("hex");
}
