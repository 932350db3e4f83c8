import { formatStudioInstant } from "#app/domain/booking-display";
import type { PasskeyRow } from "#app/domain/passkey";
import { listPasskeys } from "#app/models/passkey.server";

const DATE = "MMMM d, yyyy";

/** The account's passkeys as Profile Settings lists them. */
export function passkeyRows(userId: number): PasskeyRow[] {
  return listPasskeys(userId).map((passkey) => ({
    id: passkey.id,
    name: passkey.name,
    added: formatStudioInstant(passkey.createdAt, DATE),
    lastUsed: passkey.lastUsedAt === null ? null : formatStudioInstant(passkey.lastUsedAt, DATE),
  }));
}
