import { eq } from "drizzle-orm";
import { passkeys } from "#db/schema";
import { db } from "#app/db.server";

/** Whether the account has at least one passkey: a second factor of its own (docs/product.md "Accounts and sessions"). */
export function hasPasskey(userId: number): boolean {
  return (
    db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).get() !==
    undefined
  );
}
