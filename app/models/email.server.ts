import { and, desc, eq, sql } from "drizzle-orm";
import { bookings, emailOutbox, users } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import type { OutboxStatus } from "#app/domain/outbox";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";

/**
 * The outbox as staff read it (docs/product.md "E-mail": without SMTP the e-mails stay
 * readable by admins, so an offline demo shows what customers would receive).
 */
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

/**
 * A page of e-mails, newest first (ids grow with time, so the primary key gives the order),
 * optionally of one status. The bodies stay in the table: a list never loads them.
 */
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

/** One e-mail with its bodies and attachments, or undefined. */
export function getEmail(id: number) {
  return db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
}

/**
 * The current address of the account that owns the e-mail's booking. Booking mail goes to
 * the account's own address (docs/product.md "E-mail"); a row written before that rule may
 * name an address typed into the booking form, so a retry re-addresses it.
 */
const bookingOwnerEmail = sql`(
  SELECT ${users.email} FROM ${bookings} JOIN ${users} ON ${users.id} = ${bookings.userId}
  WHERE ${bookings.id} = ${emailOutbox.bookingId}
)`;

/**
 * Sends a FAILED e-mail again: back to PENDING with a fresh count of attempts, due now, to the
 * booking owner's address when it is about a booking. Only a FAILED row moves (checked in the
 * update itself), so a double click or a second admin changes nothing twice; false says it
 * was not FAILED (or not there).
 */
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
