import { and, eq, lte, min } from "drizzle-orm";
import { emailOutbox } from "#db/schema";
import { db, migrationsBehind } from "#app/db.server";

/** Taken on every call, a /healthz/ready loop would hold the write lock against bookings. */
export const WRITE_CHECK_EVERY_MS = 60_000;
let lastWriteCheck: { at: number; problem: string | null } | undefined;

/** A header read takes a shared lock, which never waits on writers in WAL mode. */
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

/** An e-mail still due long after its time means delivery has stopped, not that the server refused it. */
export function outboxProblem(now: number, stuckAfterMs: number): string | null {
  const oldest = db
    .select({ dueAt: min(emailOutbox.nextAttemptAt) })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, "PENDING"), lte(emailOutbox.nextAttemptAt, now)))
    .get()?.dueAt;
  if (oldest == null || now - oldest < stuckAfterMs) return null;
  return `an e-mail due ${Math.round((now - oldest) / 60_000)} minutes ago is still waiting`;
}
