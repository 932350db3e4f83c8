import { emailOutbox } from "#db/schema";
// Type only: importing db.server for real would open the database.
import type { DB } from "#app/db.server";
import type { EmailAttachment } from "#app/domain/outbox";

/**
 * The e-mail outbox's writes: an e-mail is a row written in the same transaction as the change
 * that causes it, so a booking never exists without its e-mail and a rolled-back booking never
 * sends one. Delivery is the deliver-email workflow's.
 */

export type OutgoingEmail = {
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  bookingId?: number | null;
  attachments?: EmailAttachment[];
};

/** The database, or a transaction inside `db.transaction(...)`. */
export type OutboxWriter = Pick<DB, "insert">;
export type OutboxDatabase = Pick<DB, "select" | "update">;

/**
 * Writes an e-mail to the outbox. Synchronous, so it can run inside a better-sqlite3
 * transaction next to the change that causes it. Returns the outbox row id.
 */
export function enqueueEmail(tx: OutboxWriter, message: OutgoingEmail): number {
  if (message.to.trim() === "") throw new Error(`E-mail "${message.kind}" has no recipient`);
  const row = tx
    .insert(emailOutbox)
    .values({
      kind: message.kind,
      toAddress: message.to.trim(),
      subject: message.subject,
      html: message.html,
      text: message.text,
      attachments: message.attachments?.length ? message.attachments : null,
      bookingId: message.bookingId ?? null,
    })
    .returning({ id: emailOutbox.id })
    .get();
  return row.id;
}
