import { and, asc, count, eq, lte, min } from "drizzle-orm";
import { emailOutbox } from "#db/schema";
// Type only: importing db.server for real would open the database.
import type { DB } from "#app/db.server";
import type { EmailAttachment } from "#app/domain/outbox";

/** Written in the same transaction as its cause, so a rolled-back booking never sends one. */

export type OutgoingEmail = {
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  bookingId?: number | null;
  attachments?: EmailAttachment[];
};

export type OutboxWriter = Pick<DB, "insert">;
export type OutboxDatabase = Pick<DB, "select" | "update">;

/** Synchronous, so it can run inside a better-sqlite3 transaction next to its cause. */
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

export type OutboxRow = typeof emailOutbox.$inferSelect;

/** One indexed query (email_outbox_due starts with the status). */
export function outboxBacklog(
  db: Pick<DB, "select">,
  now: number,
): { pending: number; oldestPendingAgeSeconds: number } {
  const row = db
    .select({ pending: count(), oldest: min(emailOutbox.createdAt) })
    .from(emailOutbox)
    .where(eq(emailOutbox.status, "PENDING"))
    .get();
  const oldest = row?.oldest ?? null;
  return {
    pending: row?.pending ?? 0,
    oldestPendingAgeSeconds: oldest === null ? 0 : Math.max(0, (now - oldest) / 1000),
  };
}

export function dueEmails(db: OutboxDatabase, now: number, limit: number): OutboxRow[] {
  return db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, "PENDING"), lte(emailOutbox.nextAttemptAt, now)))
    .orderBy(asc(emailOutbox.id))
    .limit(limit)
    .all();
}

/** An overlapping run (another process) skips it. False when someone else has it. */
export function claimEmail(
  db: OutboxDatabase,
  id: number,
  now: number,
  leaseUntil: number,
): boolean {
  const claimed = db
    .update(emailOutbox)
    .set({ nextAttemptAt: leaseUntil })
    .where(
      and(
        eq(emailOutbox.id, id),
        eq(emailOutbox.status, "PENDING"),
        lte(emailOutbox.nextAttemptAt, now),
      ),
    )
    .run();
  return claimed.changes === 1;
}

export function markEmailSent(db: OutboxDatabase, id: number, now: number): void {
  db.update(emailOutbox)
    .set({ status: "SENT", sentAt: now, lastError: null })
    .where(eq(emailOutbox.id, id))
    .run();
}

/** With `retryAt` null, FAILED for good (the admin Emails page can retry it by hand). */
export function recordEmailFailure(
  db: OutboxDatabase,
  id: number,
  failure: { attempts: number; lastError: string; now: number; retryAt: number | null },
): void {
  db.update(emailOutbox)
    .set({
      attempts: failure.attempts,
      lastError: failure.lastError,
      status: failure.retryAt === null ? "FAILED" : "PENDING",
      nextAttemptAt: failure.retryAt ?? failure.now,
    })
    .where(eq(emailOutbox.id, id))
    .run();
}
