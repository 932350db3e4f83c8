import { and, eq, lte, min } from "drizzle-orm";
import { emailOutbox } from "#db/schema";
import { db, migrationsBehind } from "#app/db.server";

/**
 * What readiness (GET /healthz/ready) asks of the database: can it be read and take a write,
 * does it have every migration this build ships, and is the outbox moving. Each answers null
 * when fine, or what is wrong in a few words for the operator's log.
 */

/**
 * The write probe (a write transaction that writes nothing) runs at most once a minute;
 * readiness in between reports its last result. Taken on every call, anyone requesting
 * /healthz/ready in a loop would hold the one write lock against bookings and payments.
 */
export const WRITE_CHECK_EVERY_MS = 60_000;
let lastWriteCheck: { at: number; problem: string | null } | undefined;

/**
 * A read of the file's header on every call (a shared lock, which never waits on writers in
 * WAL mode), and the write probe when its last result is older than WRITE_CHECK_EVERY_MS: it
 * fails when the file is read-only or locked out.
 */
export function databaseProblem(now: number): string | null {
  try {
    db.$client.pragma("schema_version", { simple: true });
  } catch (error) {
    return `not readable: ${messageOf(error)}`;
  }
  if (!lastWriteCheck || now - lastWriteCheck.at >= WRITE_CHECK_EVERY_MS) {
    lastWriteCheck = { at: now, problem: writeProblem() };
  }
  return lastWriteCheck.problem;
}

function writeProblem(): string | null {
  try {
    db.$client.exec("BEGIN IMMEDIATE");
    db.$client.exec("ROLLBACK");
    return null;
  } catch (error) {
    return `not writable: ${messageOf(error)}`;
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function migrationProblem(): string | null {
  const behind = migrationsBehind(db);
  return behind === 0 ? null : `${behind} migration(s) not applied`;
}

/**
 * Delivery claims a due e-mail by moving its next attempt forward, and a failed send schedules
 * the next one, so an e-mail still due long after its time means delivery has stopped, not that
 * the mail server refused it.
 */
export function outboxProblem(now: number, stuckAfterMs: number): string | null {
  const oldest = db
    .select({ dueAt: min(emailOutbox.nextAttemptAt) })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, "PENDING"), lte(emailOutbox.nextAttemptAt, now)))
    .get()?.dueAt;
  if (oldest == null || now - oldest < stuckAfterMs) return null;
  return `an e-mail due ${Math.round((now - oldest) / 60_000)} minutes ago is still waiting`;
}
