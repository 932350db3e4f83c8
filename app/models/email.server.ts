import { and, desc, eq, sql } from "drizzle-orm";
import { bookings, emailOutbox, users } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import type { OutboxStatus } from "#app/domain/outbox";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";

/** docs/product.md "E-mail": without SMTP, admins can read what customers would receive. */
const listColumns = {
  id: emailOutbox.id,
  kind: emailOutbox.kind,
  toAddress: emailOutbox.toAddress,
  subject: emailOutbox.subject,
  status: emailOutbox.status,
  attempts: emailOutbox.attempts,
  lastError: emailOutbox.lastError,
  createdAt: emailOutbox.createdAt,
  sentAt: emailOutbox.sentAt,
};

/** A list never loads the bodies. */
export function listEmailsPage(filter: { status: OutboxStatus | null }, page: number) {
  const { limit, offset } = pageWindow(page);
  const rows = db
    .select(listColumns)
    .from(emailOutbox)
    .where(filter.status ? eq(emailOutbox.status, filter.status) : undefined)
    .orderBy(desc(emailOutbox.id))
    .limit(limit)
    .offset(offset)
    .all();
  const shown: Page<(typeof rows)[number]> = toPage(rows, page);
  return shown;
}

export function getEmail(id: number) {
  return db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
}

/** A row from before that rule may name a typed address, so a retry re-addresses it. */
const bookingOwnerEmail = sql`(
  SELECT ${users.email} FROM ${bookings} JOIN ${users} ON ${users.id} = ${bookings.userId}
  WHERE ${bookings.id} = ${emailOutbox.bookingId}
)`;

/** Only a FAILED row moves (checked in the update), so a double click changes nothing twice. */
export function retryEmail(tx: Tx, id: number, now: number): boolean {
  return (
    tx
      .update(emailOutbox)
      .set({
        status: "PENDING",
        attempts: 0,
        nextAttemptAt: now,
        toAddress: sql`coalesce(${bookingOwnerEmail}, ${emailOutbox.toAddress})`,
      })
      .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, "FAILED")))
      .run().changes === 1
  );
}
